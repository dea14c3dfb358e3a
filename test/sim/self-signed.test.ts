import { X509Certificate, createPrivateKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../src/sim/apiserver/self-signed.js';

describe('the simulator’s self-signed certificate', () => {
  // Random serials used to produce a non-minimal DER INTEGER about once in 256 certificates, and the hub then failed
  // to start ("illegal padding"); enough certificates make that failure all but certain to show.
  it('is always valid DER that OpenSSL loads, for localhost and the loopback addresses', () => {
    for (let i = 0; i < 1500; i++) {
      const { cert, key } = selfSignedCertificate('hub-1');
      const x509 = new X509Certificate(cert);
      expect(x509.checkPrivateKey(createPrivateKey(key))).toBe(true);
      if (i === 0) {
        expect(x509.subjectAltName).toBe('IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:localhost');
        expect(x509.subject).toBe('CN=hub-1');
      }
    }
  });
});
