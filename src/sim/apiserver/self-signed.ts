// A throwaway self-signed certificate for the optional HTTPS listener. kubectl (client-go) never sends a bearer
// token over plain HTTP, so a kubectl session needs TLS; node:crypto can sign but not build X.509, hence this
// minimal DER encoder (v3, ECDSA P-256, subjectAltName 127.0.0.1/::1/localhost and any extra names given).
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isIPv4 } from 'node:net';

const len = (n: number) => {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
};
const tlv = (tag: number, content: Buffer) => Buffer.concat([Buffer.from([tag]), len(content.length), content]);
const seq = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
const int = (b: Buffer) => tlv(0x02, b[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), b]) : b);
function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number) as [number, number, ...number[]];
  const out = [40 * a + b];
  for (const n of rest) {
    const chunk: number[] = [];
    for (let v = n; ; v = Math.floor(v / 128)) {
      chunk.unshift((v % 128) | (chunk.length ? 0x80 : 0));
      if (v < 128) break;
    }
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}
const utcTime = (d: Date) => tlv(0x17, Buffer.from(d.toISOString().replace(/[-:T]/g, '').slice(2, 14) + 'Z'));

const ECDSA_SHA256 = seq(oid('1.2.840.10045.4.3.2'));

/** An extra subjectAltName: an IPv4 address, else a DNS name (e.g. a compose service name). */
const altName = (name: string) =>
  isIPv4(name) ? tlv(0x87, Buffer.from(name.split('.').map(Number))) : tlv(0x82, Buffer.from(name));

export function selfSignedCertificate(
  commonName = 'beekeeper-sim',
  extraNames: string[] = [],
): { key: string; cert: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const name = seq(set(seq(oid('2.5.4.3'), tlv(0x0c, Buffer.from(commonName)))));
  const now = Date.now();
  const san = seq(
    tlv(0x87, Buffer.from([127, 0, 0, 1])),
    tlv(0x87, Buffer.concat([Buffer.alloc(15), Buffer.from([1])])),
    tlv(0x82, Buffer.from('localhost')),
    ...extraNames.map(altName),
  );
  const extensions = tlv(0xa3, seq(seq(oid('2.5.29.17'), tlv(0x04, san))));
  // DER INTEGERs are minimal and the serial must be positive: a first byte in 0x40..0x7f is neither zero (which
  // would be a forbidden leading zero, "illegal padding") nor negative.
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x3f) | 0x40;
  const tbs = seq(
    tlv(0xa0, int(Buffer.from([2]))),
    int(serial),
    ECDSA_SHA256,
    name,
    seq(utcTime(new Date(now - 60_000)), utcTime(new Date(now + 365 * 24 * 3600_000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    extensions,
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = seq(tbs, ECDSA_SHA256, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const pem = `-----BEGIN CERTIFICATE-----\n${der
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END CERTIFICATE-----\n`;
  return { key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, cert: pem };
}
