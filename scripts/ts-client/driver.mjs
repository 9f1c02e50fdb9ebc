// The official MCP TypeScript SDK client against asktui serve: it lists
// ask_user_question, checks its schemas, and calls it the way an SDK user
// would (no progress token, the SDK's default fetch), reporting what
// happens as JSON lines on standard output.
//
//   ASKTUI_TOKEN=… node scripts/ts-client/driver.mjs [--url URL] [--mode answer|drop]
//                  [--idle-timeout MS] [--timeout MS]
//
// --mode answer (default): ask one question and print the answer, which
//   the SDK has validated against the tool's outputSchema.
// --mode drop: ask, and on a line "drop" on standard input close the
//   client (client.close() sends no DELETE and no notifications/cancelled).
// --idle-timeout MS: fail when no byte arrives on the call's response for
//   MS milliseconds, as the SDK's default fetch (undici) does after 300 s
//   for headers and body alike. Each keepalive comment that arrives is
//   reported as {"event":"keepalive"}.
// --timeout MS: the SDK's request timeout (default one hour; the SDK's own
//   default is 60 s and is only reset by progress notifications).
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const args = { url: 'http://127.0.0.1:7341/mcp', mode: 'answer', idleTimeout: 0, timeout: 3600_000 };
for (let i = 2; i < process.argv.length; i += 2) {
  const [flag, value] = [process.argv[i], process.argv[i + 1]];
  switch (flag) {
    case '--url': args.url = value; break;
    case '--mode': args.mode = value; break;
    case '--idle-timeout': args.idleTimeout = Number(value); break;
    case '--timeout': args.timeout = Number(value); break;
    default:
      console.error(`unknown flag ${flag}`);
      process.exit(2);
  }
}

const emit = (event, fields = {}) => process.stdout.write(JSON.stringify({ event, ...fields }) + '\n');
const fail = (message) => {
  emit('error', { message });
  process.exit(1);
};

// idleFetch is fetch that aborts a POST's response (which carries the
// call's result) on which no byte arrives for ms milliseconds, reporting
// each SSE comment it sees there.
function idleFetch(ms) {
  return async (input, init = {}) => {
    if ((init.method ?? 'GET') !== 'POST') return fetch(input, init);
    const abort = new AbortController();
    init.signal?.addEventListener('abort', () => abort.abort(init.signal.reason));
    let timer;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => abort.abort(new Error(`no byte for ${ms} ms`)), ms);
    };
    arm();
    const res = await fetch(input, { ...init, signal: abort.signal });
    if (!res.body) {
      clearTimeout(timer);
      return res;
    }
    arm();
    const decoder = new TextDecoder();
    const body = res.body.pipeThrough(new TransformStream({
      transform(chunk, controller) {
        arm();
        if (/^:/m.test(decoder.decode(chunk, { stream: true }))) emit('keepalive');
        controller.enqueue(chunk);
      },
      flush() { clearTimeout(timer); },
    }));
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

const headers = {};
if (process.env.ASKTUI_TOKEN) headers.Authorization = `Bearer ${process.env.ASKTUI_TOKEN}`;
const transport = new StreamableHTTPClientTransport(new URL(args.url), {
  requestInit: { headers },
  ...(args.idleTimeout > 0 ? { fetch: idleFetch(args.idleTimeout) } : {}),
});
const client = new Client({ name: 'asktui-ts-client', version: '1' });
await client.connect(transport);

const { tools } = await client.listTools();
const tool = tools.find((t) => t.name === 'ask_user_question');
if (!tool) fail('no ask_user_question tool');
if (tool.outputSchema?.type !== 'object' || !tool.outputSchema.properties?.answers) fail('no output schema');
emit('listed', { protocolVersion: transport.protocolVersion, outputSchema: tool.outputSchema });

const call = client.callTool({
  name: 'ask_user_question',
  arguments: {
    questions: [{
      id: 'db', question: 'Which database should the TypeScript client use?', header: 'Database',
      options: [{ label: 'Postgres (Recommended)', description: 'Battle-tested' }, { label: 'SQLite' }],
    }],
  },
}, undefined, { timeout: args.timeout });
emit('calling');

if (args.mode === 'drop') {
  call.catch(() => {}); // closing the client rejects it
  for await (const line of createInterface({ input: process.stdin })) {
    if (line.trim() === 'drop') break;
  }
  await client.close();
  emit('dropped');
  process.exit(0);
}

try {
  // callTool has validated structuredContent against the outputSchema
  // (it throws when it does not match).
  const result = await call;
  emit('answer', { isError: !!result.isError, structuredContent: result.structuredContent, content: result.content });
  await client.close();
  process.exit(0);
} catch (err) {
  fail(String(err?.stack ?? err));
}
