// The least a client on the official ACP SDK does for one prompt, as a
// yardstick for `cdxtheme chat`: spawn the agent in its own process group,
// initialize, session/new, prompt; print each text chunk and a last "done"
// line as JSON; then end the agent's group at once and exit. With a
// timeout it sends session/cancel when the time is up, waits at most 1 s
// more, and exits 4. With SDK_CLIENT_SESSION set it continues that session
// instead (session/resume: the SDK has no process that outlives a call, so
// a follow-up from a script is always spawn, initialize, resume, prompt).
//
//   node sdk-client.mjs TIMEOUT_MS PROMPT AGENT [ARGS...]
import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';

const [timeoutMs, prompt, ...agentArgv] = process.argv.slice(2);
const child = spawn(agentArgv[0], agentArgv.slice(1), { stdio: ['pipe', 'pipe', 'inherit'], detached: true });
const endAgent = () => {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {}
};
const out = (o) => process.stdout.write(JSON.stringify(o) + '\n');

const app = acp
  .client({ name: 'sdk-bench-client' })
  .onNotification(acp.methods.client.session.update, ({ params }) => {
    const u = params.update;
    if (u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text') out({ type: 'text', text: u.content.text });
  })
  .onRequest(acp.methods.client.session.requestPermission, () => ({ outcome: { outcome: 'cancelled' } }));

const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
let code = 0;
try {
  await app.connectWith(stream, async (ctx) => {
    await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    let sessionId = process.env.SDK_CLIENT_SESSION;
    if (sessionId) {
      await ctx.request(acp.methods.agent.session.resume, { sessionId, cwd: process.cwd(), mcpServers: [] });
    } else {
      ({ sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: process.cwd(), mcpServers: [] }));
    }
    const turn = ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: prompt }] });
    const late = Symbol('timeout');
    const first = await Promise.race([turn, new Promise((r) => setTimeout(() => r(late), Number(timeoutMs)))]);
    if (first !== late) {
      out({ type: 'done', stopReason: first.stopReason, sessionId });
      return;
    }
    await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
    const after = await Promise.race([turn, new Promise((r) => setTimeout(() => r(late), 1000))]);
    out({ type: 'done', stopReason: after === late ? 'timeout' : after.stopReason });
    code = 4;
  });
} catch (e) {
  process.stderr.write(`sdk-client: ${e?.message ?? e}\n`);
  code = 1;
}
endAgent();
process.exit(code);
