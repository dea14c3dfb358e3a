/** The logging the gateway needs; a pino logger fits. */
export interface GatewayLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
