// The judge benchmark's model provider (not a test): tests/page/fake_provider.mjs on a fixed
// port, answering every request after a fixed latency, as a model's think time would.
//
//   node bench/judge-fake.mjs --port 8790 --latency-ms 50 [--preflight-max-age-s 600]
//
// Prints its origin once listening; `GET /fake/requests` gives the requests answered so far.
// Stops on SIGTERM or SIGINT.

import { parseArgs } from 'node:util';
import { startFakeProvider } from '../tests/page/fake_provider.mjs';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'latency-ms': { type: 'string', default: '0' },
    'preflight-max-age-s': { type: 'string', default: '0' },
  },
});
const fake = await startFakeProvider({
  port: Number(values.port),
  latencyMs: Number(values['latency-ms']),
  isRecording: false,
  preflightMaxAgeS: Number(values['preflight-max-age-s']),
});
console.log(fake.origin);
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => fake.close().then(() => process.exit(0)));
