import { X509Certificate, createPrivateKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../src/sim/apiserver/self-signed.js';
import { startSimulator } from '../../src/sim/simulator.js';

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

  it('is valid for the advertised host too, which the kubeconfig names (compose: https://sim:<port>)', async () => {
    expect(new X509Certificate(selfSignedCertificate('hub-1', ['sim', '10.0.0.7']).cert).subjectAltName).toBe(
      'IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:localhost, DNS:sim, IP Address:10.0.0.7',
    );
    const sim = await startSimulator({
      hubNames: ['local', 'west'],
      tls: true,
      advertiseHost: 'sim',
      controllers: false,
    });
    try {
      const ports = sim.hubs.map((h) => new URL(h.url).port);
      const servers = (host?: string) =>
        (sim.kubeconfig(host).clusters as Array<{ cluster: { server: string } }>).map((c) => c.cluster.server);
      expect(servers()).toEqual(ports.map((p) => `https://sim:${p}`));
      expect(servers('127.0.0.1')).toEqual(ports.map((p) => `https://127.0.0.1:${p}`));
      // This process itself still reaches the hubs where they listen.
      expect(sim.hubs.map((h) => h.url)).toEqual(ports.map((p) => `https://127.0.0.1:${p}`));
    } finally {
      await sim.close();
    }
  });
});
