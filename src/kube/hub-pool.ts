// The keep-alive connections to one hub: one undici Client (one connection, one request at a time) per request in
// flight at the peak, each request sent on a connection with nothing in flight. undici's own Pool does not do for
// sequential requests: after a response it keeps the connection marked busy until the next turn of the event loop
// (setImmediate, client-h1.js, "to make sure that non-spec compliant servers are not closing the connection"), so
// the next request, sent as soon as the caller has the answer, opened a second connection. Sent on a Client in
// that state, it waits for that turn on the same connection instead.
import { Client, type Dispatcher } from 'undici';

export class HubPool {
  private readonly clients: Array<{ client: Client; inFlight: number }> = [];

  constructor(
    private readonly origin: string,
    private readonly options: Client.Options,
  ) {}

  /**
   * Sends on an idle connection (a new one when none is). The handler's `release` is set before it is sent (a request
   * may fail at once) and must be called once the request has settled.
   */
  dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler & { release: () => void }): void {
    let slot = this.clients.find((c) => c.inFlight === 0);
    if (!slot) {
      slot = { client: new Client(this.origin, this.options), inFlight: 0 };
      this.clients.push(slot);
    }
    const held = slot;
    held.inFlight += 1;
    let released = false;
    handler.release = () => {
      if (released) return;
      released = true;
      held.inFlight -= 1;
    };
    held.client.dispatch(opts, handler);
  }
}
