// Hubs are configured with kubeconfigs of every kind, not only bearer tokens and client certificates: basic auth,
// impersonation (`as`), an exec credential plugin, a cluster reached by another TLS name or with verification off.
// Each is loaded by Beekeeper's own loader and sent through its hub client to a bare HTTPS server that records what
// it received (the simulator checks no credential of these kinds). What a failure says must not carry the secret.
import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { createRestClient } from '../../src/kube/rest-client.js';
import { credentialPlugin, useRecordingHub } from './recording-hub.js';

const PASSWORD = 'pa55-w0rd-never-logged';
const { hub, dir, kubeconfig, trusting, sentBy, failureOf, hubStatus } = useRecordingHub('auth-kinds');

describe('basic auth', () => {
  const kc = (username = 'admin') => kubeconfig({ username, password: PASSWORD });

  it('sends the username and password as Authorization: Basic', async () => {
    const got = await sentBy(kc());
    expect(got.headers.authorization).toBe(`Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`);
  });

  it('a refused request names neither the password nor its encoding, nor does /v1/hubs', async () => {
    const err = await failureOf(kc('refused'), '/api/v1/namespaces');
    expect(err).toBeInstanceOf(ApiException);
    expect((err as ApiException<string>).code).toBe(401);
    const encoded = Buffer.from(`refused:${PASSWORD}`).toString('base64');
    const said = `${String(err)} ${JSON.stringify(err)} ${(err as Error).stack}`;
    for (const secret of [PASSWORD, encoded]) expect(said).not.toContain(secret);

    const status = await hubStatus(kc('refused'));
    expect(status).toMatchObject({ reachable: false });
    for (const secret of [PASSWORD, encoded]) expect(JSON.stringify(status)).not.toContain(secret);
  });
});

describe('impersonation', () => {
  it('`as` is sent as Impersonate-User beside the credentials, as client-go sends it', async () => {
    const got = await sentBy(kubeconfig({ token: 'admin-token', as: 'alice@example.com' }));
    expect(got.headers['impersonate-user']).toBe('alice@example.com');
    expect(got.headers.authorization).toBe('Bearer admin-token');
    expect(got.lines.filter(([name]) => name.startsWith('impersonate-'))).toHaveLength(1);
  });

  it('as-uid, as-groups and as-user-extra are sent too: one line per group and per extra value, the key escaped', async () => {
    const got = await sentBy(
      kubeconfig({
        token: 'admin-token',
        as: 'alice@example.com',
        'as-uid': 'uid-1234',
        'as-groups': ['hive-admins', 'system:authenticated'],
        'as-user-extra': { 'scopes.example.com/team a': ['payments', 'search'], reason: ['nightly sweep'] },
      }),
    );
    const impersonation = got.lines.filter(([name]) => name.startsWith('impersonate-'));
    expect(impersonation).toEqual([
      ['impersonate-user', 'alice@example.com'],
      ['impersonate-uid', 'uid-1234'],
      ['impersonate-group', 'hive-admins'],
      ['impersonate-group', 'system:authenticated'],
      // client-go's headerKeyEscape: '/' and ' ' are not token characters. Names travel lower-case; the API server
      // lower-cases the key before unescaping it (its impersonation filter), so %2f reads as %2F.
      ['impersonate-extra-scopes.example.com%2fteam%20a', 'payments'],
      ['impersonate-extra-scopes.example.com%2fteam%20a', 'search'],
      ['impersonate-extra-reason', 'nightly sweep'],
    ]);
  });
});

describe('TLS', () => {
  it('tls-server-name is the name sent and verified, while the connection goes to the server URL', async () => {
    const got = await sentBy(kubeconfig({ token: 't' }, { ...trusting(), 'tls-server-name': 'hub.internal' }));
    expect(got.servername).toBe('hub.internal');
    // The certificate is valid for 127.0.0.1 too: a name it does not hold fails, so the name is what is verified.
    const err = await failureOf(
      kubeconfig({ token: 't' }, { ...trusting(), 'tls-server-name': 'elsewhere.internal' }),
      '/api',
    );
    expect(String((err as Error).message)).toMatch(/elsewhere\.internal|altnames/i);
  });

  it('insecure-skip-tls-verify reaches a server whose certificate is not trusted; without it, the request fails', async () => {
    const got = await sentBy(kubeconfig({ token: 't' }, { 'insecure-skip-tls-verify': true }));
    expect(got.path).toBe('/api/v1/namespaces');
    const before = hub.seen.length;
    const err = await failureOf(kubeconfig({ token: 't' }, {}), '/api');
    expect((err as { code?: string }).code ?? (err as Error).message).toMatch(/SELF_SIGNED|self.signed/i);
    expect(hub.seen).toHaveLength(before);
  });
});

describe('an exec credential plugin', () => {
  const { user: execUser, runs, expireAt, neverExpire } = credentialPlugin(dir);

  it("sends the plugin's token, runs it again once the token has expired, and not while it is valid", async () => {
    const kc = kubeconfig(execUser());
    const first = runs() + 1;
    expireAt(new Date(Date.now() - 1_000)); // expired by the next request
    expect((await sentBy(kc)).headers.authorization).toBe(`Bearer exec-${first}`);
    expect(runs()).toBe(first);
    expireAt(new Date(Date.now() + 3_600_000));
    expect((await sentBy(kc)).headers.authorization).toBe(`Bearer exec-${first + 1}`);
    expect((await sentBy(kc)).headers.authorization).toBe(`Bearer exec-${first + 1}`);
    expect(runs()).toBe(first + 1);
  });

  it('requests sent together when the token has expired run the plugin once (client-go holds one refresh)', async () => {
    const kc = kubeconfig(execUser());
    const rest = createRestClient(() => kc);
    expireAt(new Date(Date.now() - 1_000));
    await rest.request('GET', '/api/v1/namespaces');
    const expired = runs();
    expireAt(new Date(Date.now() + 3_600_000));
    const before = hub.seen.length;
    await Promise.all(Array.from({ length: 8 }, () => rest.request('GET', '/api/v1/namespaces')));
    expect(runs()).toBe(expired + 1);
    expect(new Set(hub.seen.slice(before).map((s) => s.headers.authorization))).toEqual(
      new Set([`Bearer exec-${expired + 1}`]),
    );
  });

  it('a credential without an expiry is kept until the hub answers 401; then the plugin runs once for all the requests refused together, and they are sent again', async () => {
    neverExpire();
    const kc = kubeconfig(execUser());
    const rest = createRestClient(() => kc);
    const before = runs();
    for (let i = 0; i < 3; i++) await rest.request('GET', '/api/v1/namespaces');
    await Promise.all(Array.from({ length: 4 }, () => rest.request('GET', '/api/v1/namespaces')));
    expect(runs()).toBe(before + 1);

    hub.refused.add(`Bearer exec-${before + 1}`); // the token is revoked
    const sent = hub.seen.length;
    await Promise.all(Array.from({ length: 8 }, () => rest.request('GET', '/api/v1/namespaces')));
    expect(runs()).toBe(before + 2);
    // Each of the 8 was sent with the revoked token (all left before the first 401 came back), then once more.
    const tokens = hub.seen.slice(sent).map((s) => s.headers.authorization);
    expect(tokens.filter((t) => t === `Bearer exec-${before + 1}`)).toHaveLength(8);
    expect(tokens.filter((t) => t === `Bearer exec-${before + 2}`)).toHaveLength(8);
    expect(tokens).toHaveLength(16);
    await rest.request('GET', '/api/v1/namespaces');
    expect(runs()).toBe(before + 2);
  });

  it('a request refused again after the plugin has run again fails with 401, having run it once more and no more', async () => {
    neverExpire();
    const kc = kubeconfig(execUser());
    const rest = createRestClient(() => kc);
    await rest.request('GET', '/api/v1/namespaces');
    const before = runs();
    for (let n = before; n <= before + 3; n++) hub.refused.add(`Bearer exec-${n}`);
    const err = await rest.request('GET', '/api/v1/namespaces').catch((e: unknown) => e);
    expect((err as ApiException<string>).code).toBe(401);
    expect(runs()).toBe(before + 1);
    expect(`${String(err)} ${JSON.stringify(err)}`).not.toContain(`exec-${before}`);
  });

  it("a refused request does not name the plugin's token", async () => {
    const kc = kubeconfig(execUser());
    const err = await failureOf(kc);
    expect((err as ApiException<string>).code).toBe(401);
    const token = `exec-${runs()}`;
    expect(`${String(err)} ${JSON.stringify(err)}`).not.toContain(`Bearer ${token}`);
  });
});
