// A fake model provider on 127.0.0.1 for the page's judge tests, on its own port (so another
// origin than the page: every request is a CORS request). It answers preflights as the real
// services do, checks each provider's headers, and answers in the shapes of
// crates/toolscope-cli/tests/support/fake_provider.rs: OpenAI-style `chat/completions` with the
// verdict JSON as the message's content, Anthropic-style `v1/messages` with a forced
// `record_verdict` tool call, Gemini-style `v1beta/models/M:generateContent` with the JSON as
// the candidate's text (`x-goog-api-key`, a `responseSchema`, no `key=` in the URL). The verdict is pass, pass, pass, fail on the four criteria, each
// quoting the called tool's name from the prompt (so the evidence check passes).
//
// Faults are asked for by the test: `fake.fault = (prompt, seen) => name` where `seen` counts
// the requests with this prompt, and name is 'rate_limit' (429 with retry-after: 1), 'refusal',
// 'hang' (answers after `hangMs`), 'huge' (17 MiB of whitespace before the answer) or undefined.
//
// For the judge benchmark (bench/judge-fake.mjs): `latencyMs` delays every answer by that long, as
// a model's think time; `isRecording: false` keeps only the count of requests (`requestCount`,
// and `maxInFlight`, the most answered at once), not each one's headers and body; `port` picks
// the port (0: any free one). `GET /fake/requests` answers those counts as
// `{"requests": n, "max_in_flight": m}` and starts the next maximum. `preflightMaxAgeS` lets the
// browser keep a CORS preflight's answer that long (0: every request has its own preflight).
// `tls: {key, cert}` serves HTTPS with HTTP/2 (and HTTP/1.1), as the hosted APIs do: a browser
// then sends every request on one connection, instead of at most 6 at once to an HTTP/1.1 server.

import { createServer } from 'node:http';
import { createSecureServer } from 'node:http2';

const ALLOWED_HEADERS = [
  'authorization', 'content-type', 'x-api-key', 'anthropic-version',
  'anthropic-dangerous-direct-browser-access', 'x-goog-api-key',
].join(', ');

/** The called tool's name and event, from "THE CALL TO JUDGE: event N, TOOL (call …". */
function calledTool(prompt) {
  const line = prompt.split('\n').find((text) => text.startsWith('THE CALL TO JUDGE: event ')) ?? '';
  const rest = line.slice('THE CALL TO JUDGE: event '.length);
  const [event, after = ''] = rest.split(/, (.*)/s);
  return { tool: after.split(' (call ')[0], event: Number(event) || 0 };
}

/** The verdict the fake gives: pass, pass, pass, fail. */
export function fakeVerdict(prompt) {
  const { tool, event } = calledTool(prompt);
  const criterion = (verdict) => ({
    verdict, reason: `fake judge: ${verdict}`, evidence: [{ quote: tool, event }],
  });
  return {
    call_decision: criterion('pass'),
    right_tool: criterion('pass'),
    args_grounded: criterion('pass'),
    result_used: criterion('fail'),
  };
}

function promptOf(body) {
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  const user = [...messages].reverse().find((message) => message.role === 'user');
  if (typeof user?.content === 'string') return user.content;
  const gemini = body?.contents?.[0]?.parts?.[0]?.text;
  return typeof gemini === 'string' ? gemini : '';
}

const GEMINI_PATH = /^\/v1beta\/models\/[^/:?]+:generateContent$/;

/** Starts the fake; `close()` stops it. */
export async function startFakeProvider({
  latencyMs = 0, isRecording = true, port = 0, preflightMaxAgeS = 0, tls,
} = {}) {
  const fake = {
    requests: [],
    requestCount: 0,
    inFlight: 0,
    maxInFlight: 0,
    latencyMs,
    preflights: [],
    violations: [],
    fault: () => undefined,
    hangMs: 3000,
    seen: new Map(),
    // False: answer as a local server that does not allow other origins (no CORS headers).
    isCorsOpen: true,
  };
  const handle = (request, response) => {
    const cors = !fake.isCorsOpen ? {} : {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'POST, OPTIONS',
      'access-control-allow-headers': ALLOWED_HEADERS,
      'access-control-expose-headers': 'retry-after, retry-after-ms',
    };
    if (request.method === 'OPTIONS') {
      if (isRecording) fake.preflights.push({ path: request.url, headers: request.headers });
      response.writeHead(204, { ...cors, 'access-control-max-age': String(preflightMaxAgeS) }).end();
      return;
    }
    if (request.method === 'GET' && request.url === '/fake/requests') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ requests: fake.requestCount, max_in_flight: fake.maxInFlight }));
      fake.maxInFlight = fake.inFlight;
      return;
    }
    fake.inFlight += 1;
    fake.maxInFlight = Math.max(fake.maxInFlight, fake.inFlight);
    response.on('close', () => (fake.inFlight -= 1));
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body = null;
      try {
        body = JSON.parse(text);
      } catch {
        // A violation below.
      }
      const recorded = { path: request.url, headers: request.headers, body: text };
      fake.requestCount += 1;
      if (isRecording) fake.requests.push(recorded);
      const violations = check(recorded, body);
      const answer = (status, json, extra = {}) => {
        response.writeHead(status, { ...cors, 'content-type': 'application/json', ...extra });
        response.end(JSON.stringify(json));
      };
      if (violations.length > 0) {
        fake.violations.push(...violations);
        answer(400, { error: { message: `fake provider: ${violations.join('; ')}` } });
        return;
      }
      const prompt = promptOf(body);
      const seen = (fake.seen.get(prompt) ?? 0) + 1;
      if (isRecording) fake.seen.set(prompt, seen);
      const fault = fake.fault(prompt, seen);
      if (fault === 'rate_limit') {
        answer(429, { error: { message: 'Rate limit reached, try again in 1s', type: 'rate_limit_error',
          code: 'rate_limit_exceeded' } }, { 'retry-after': '1' });
        return;
      }
      if (fault === 'huge') {
        // 17 MiB of JSON whitespace before the answer, streamed: past what the page reads.
        response.writeHead(200, { ...cors, 'content-type': 'application/json' });
        const chunk = Buffer.alloc(1 << 20, 0x20);
        let sent = 0;
        const more = () => {
          while (sent < 17) {
            sent += 1;
            if (!response.write(chunk)) return response.once('drain', more);
          }
          response.end(JSON.stringify(respond(request.url, prompt, undefined)));
          return undefined;
        };
        response.on('error', () => {});
        more();
        return;
      }
      const reply = () => answer(200, respond(request.url, prompt, fault));
      if (fault === 'hang') setTimeout(reply, fake.hangMs);
      else if (fake.latencyMs > 0) setTimeout(reply, fake.latencyMs);
      else reply();
    });
  };
  const server = tls ? createSecureServer({ ...tls, allowHTTP1: true }, handle) : createServer(handle);
  await new Promise((ready) => server.listen(port, '127.0.0.1', ready));
  fake.origin = `${tls ? 'https' : 'http'}://127.0.0.1:${server.address().port}`;
  fake.close = () => new Promise((done) => {
    server.closeAllConnections?.();
    server.close(done);
  });
  return fake;
}

/** Every rule the request breaks. */
function check(recorded, body) {
  const violations = [];
  const header = (name) => recorded.headers[name];
  if (header('content-type') !== 'application/json') violations.push('content-type is not application/json');
  if (body === null) violations.push('the body is not JSON');
  if (recorded.path === '/v1/messages') {
    if (!header('x-api-key')) violations.push('anthropic: no x-api-key');
    if (header('anthropic-version') !== '2023-06-01') violations.push('anthropic: no anthropic-version 2023-06-01');
    if (header('anthropic-dangerous-direct-browser-access') !== 'true') {
      violations.push('anthropic: no anthropic-dangerous-direct-browser-access from a browser');
    }
    if (body?.tool_choice?.name !== 'record_verdict') violations.push('anthropic: the verdict tool is not forced');
  } else if (recorded.path === '/v1/chat/completions') {
    const auth = header('authorization');
    if (auth !== undefined && !/^Bearer .+/.test(auth)) violations.push('openai: authorization is not Bearer KEY');
    if (!Array.isArray(body?.messages)) violations.push('openai: no messages');
  } else if (GEMINI_PATH.test(recorded.path)) {
    if (!header('x-goog-api-key')) violations.push('gemini: no x-goog-api-key');
    if (body?.generationConfig?.responseMimeType !== 'application/json') violations.push('gemini: no JSON response type');
    if (typeof body?.generationConfig?.responseSchema !== 'object') violations.push('gemini: no responseSchema');
  } else if (/[?&]key=/.test(recorded.path)) {
    violations.push('gemini: key in the URL');
  } else {
    violations.push(`unknown path ${recorded.path}`);
  }
  return violations;
}

function respond(path, prompt, fault) {
  const verdict = fakeVerdict(prompt);
  const isRefusal = fault === 'refusal';
  if (path === '/v1/messages') {
    return {
      model: 'fake-model', id: 'msg_01Fake', type: 'message', role: 'assistant',
      content: isRefusal ? [] : [{ type: 'tool_use', id: 'toolu_01Fake', name: 'record_verdict', input: verdict }],
      stop_reason: isRefusal ? 'refusal' : 'tool_use', stop_sequence: null,
      usage: { input_tokens: 1000, output_tokens: 100 },
    };
  }
  if (GEMINI_PATH.test(path)) {
    // As generateContent answers: the JSON as the candidate's text, SAFETY when it refuses.
    return {
      candidates: [{
        content: { parts: isRefusal ? [] : [{ text: JSON.stringify(verdict) }], role: 'model' },
        finishReason: isRefusal ? 'SAFETY' : 'STOP',
      }],
      usageMetadata: { promptTokenCount: 1000, candidatesTokenCount: 100, totalTokenCount: 1100 },
      modelVersion: 'fake-model', responseId: 'fake',
    };
  }
  const message = isRefusal
    ? { role: 'assistant', content: null, refusal: "I'm sorry, I can't help with that." }
    : { role: 'assistant', content: JSON.stringify(verdict), refusal: null };
  return {
    id: 'chatcmpl-fake', object: 'chat.completion', model: 'fake-model',
    choices: [{ index: 0, message, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100 },
  };
}
