// The judge benchmark's model provider (not a test): tests/page/fake_provider.mjs on a fixed
// port, answering every request after a fixed latency, as a model's think time would.
//
//   node bench/judge-fake.mjs --port 8790 --latency-ms 50 [--preflight-max-age-s 600] [--http2]
//
// `--http2` serves HTTPS with HTTP/2, as the hosted APIs do, with a self-signed certificate made
// with openssl for 127.0.0.1 (clients must skip verification: Chromium's
// --ignore-certificate-errors, curl -k, NODE_TLS_REJECT_UNAUTHORIZED=0).
// Prints its origin once listening; `GET /fake/requests` gives the requests answered so far.
// Stops on SIGTERM or SIGINT.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startFakeProvider } from '../tests/page/fake_provider.mjs';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'latency-ms': { type: 'string', default: '0' },
    'preflight-max-age-s': { type: 'string', default: '0' },
    http2: { type: 'boolean', default: false },
  },
});

function selfSigned() {
  const dir = mkdtempSync(join(tmpdir(), 'judge-fake-'));
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
  ], { stdio: 'ignore' });
  const tls = { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  rmSync(dir, { recursive: true });
  return tls;
}

const fake = await startFakeProvider({
  port: Number(values.port),
  latencyMs: Number(values['latency-ms']),
  isRecording: false,
  preflightMaxAgeS: Number(values['preflight-max-age-s']),
  tls: values.http2 ? selfSigned() : undefined,
});
console.log(fake.origin);
// Not fake.close(): an HTTP/2 server waits for its clients' sessions to end first.
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
