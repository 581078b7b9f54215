// npm run bench e2e: a 300-turn scripted conversation through the real `aalis chat` process against the scripted
// OpenAI-compatible test server, with an 8k context window (so the history is trimmed and compacted along the way).
// Prints the prompt-cache share of the requests — how much of each request's prompt (tools, then messages, as
// sent) repeats a prefix of an earlier request, computed from the recorded request bodies — and ms per turn.
// Goal: ≥ 95% prefix share. BENCH_TURNS overrides the number of turns; BENCH_PAUSE_MS sets a pause after each
// reply before the next line is written (default 0: all lines piped at once, as a script would; with e.g. 25, deferred
// work such as the memory summary's compaction gets the gaps it has between a person's messages). BENCH_DEBUG=1
// lists every request with the part that does not repeat an earlier one.
import { type ScriptedReply, startOpenAiTestServer, textReply } from '@aalis/testing';
import { runAalis, serverConfig, spawnAalis, temporaryWorkspace } from '../src/spawn-aalis.case.js';

const TURNS = Number(process.env.BENCH_TURNS ?? 300);
/** A pause after each reply before the next line, like a person reading and typing (0 = lines back to back). */
const PAUSE_MS = Number(process.env.BENCH_PAUSE_MS ?? 0);
const CONTEXT_WINDOW = 8_192;
const LOOKBACK = 64;

const topics = [
  'the garden',
  'a trip to Kyoto',
  'sourdough bread',
  'the chess club',
  'a broken bicycle',
  'jazz records',
  'the new job',
  'winter plans',
];
const asks = [
  'What do you think about {topic}?',
  'Remind me what we said about {topic}.',
  'Give me one tip on {topic}.',
  'Should I worry about {topic}?',
  'Tell me something short about {topic}.',
];
const answers = [
  'About {topic}: start small, keep notes, and look again next week; most of it sorts itself out once you have a routine.',
  'We talked about {topic} earlier. The short version: it is going fine, and the next step is to pick one thing and do it today.',
  'One tip on {topic}: write down what worked and what did not, then change only one thing at a time so you can tell what helped.',
  'No need to worry about {topic}. Keep an eye on it, ask for help if it stalls, and give it a little time every day.',
];

function fill(template: string, turn: number): string {
  return template.replace('{topic}', topics[(turn * 7) % topics.length]!);
}

function reply(turn: number): ScriptedReply {
  const text = fill(answers[turn % answers.length]!, turn);
  // promptTokens 0: the agent then measures usage by its own estimate of the prompt, as with a real server's figure.
  return textReply(text, { chunkSize: 16, usage: { promptTokens: 0, completionTokens: Math.ceil(text.length / 4) } });
}

function commonPrefix(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  let index = 0;
  while (index < length && a.charCodeAt(index) === b.charCodeAt(index)) index++;
  return index;
}

/** The prompt as a provider caches it: tool definitions first, then the messages, in the order sent. */
function promptText(body: Record<string, unknown>): string {
  const messages = (body.messages as unknown[]) ?? [];
  return JSON.stringify(body.tools ?? []) + messages.map((message) => JSON.stringify(message)).join('');
}

/** For each prompt, how many leading characters it shares with the best of the earlier ones (the cacheable part). */
function repeatedPrefixes(prompts: readonly string[]): number[] {
  return prompts.map((prompt, index) => {
    let best = 0;
    for (let earlier = Math.max(0, index - LOOKBACK); earlier < index; earlier++) {
      best = Math.max(best, commonPrefix(prompt, prompts[earlier]!));
    }
    return best;
  });
}

function prefixShare(prompts: readonly string[]): { share: number; repeated: number; total: number } {
  const repeated = repeatedPrefixes(prompts).reduce((sum, value) => sum + value, 0);
  const total = prompts.reduce((sum, prompt) => sum + prompt.length, 0);
  return { share: total === 0 ? 0 : repeated / total, repeated, total };
}

const server = await startOpenAiTestServer({ models: ['test-model'] });
const workspace = temporaryWorkspace(
  serverConfig(server.url).replace(
    '  model: test-model\n',
    `  model: test-model\n  contextWindow: ${CONTEXT_WINDOW}\n  maxOutputTokens: 1024\n`,
  ),
);
try {
  // Start-up and shutdown alone, to take them out of the per-turn figure. A first, unmeasured run writes the
  // configuration and data directory and rebuilds the command's bundle when a source changed (seconds, which
  // would otherwise be subtracted from the turns and make the per-turn figure negative).
  await runAalis({ cwd: workspace.dir, args: ['chat', '--session', 'warm-up'], input: '' });
  const startedEmpty = performance.now();
  await runAalis({ cwd: workspace.dir, args: ['chat', '--session', 'warm-up'], input: '' });
  const startup = performance.now() - startedEmpty;

  // Enough replies for the conversation and the summary calls in between (extra ones stay unused).
  for (let turn = 0; turn < TURNS * 2; turn++) server.enqueue(reply(turn));
  const lines = Array.from({ length: TURNS }, (_, turn) => `${fill(asks[turn % asks.length]!, turn)} (${turn + 1})`);
  const started = performance.now();
  const run = spawnAalis({ cwd: workspace.dir, args: ['chat', '--session', 'bench'] });
  const stdin = run.child.stdin!;
  if (PAUSE_MS === 0) {
    stdin.end(`${lines.join('\n')}\n`);
  } else {
    // Each reply is one line: wait for it (on the output's data events, not by polling), pause, type the next.
    let waiting: { lines: number; resolve: () => void } | undefined;
    run.child.stdout!.on('data', () => {
      if (waiting && run.stdout().split('\n').length > waiting.lines) waiting.resolve();
    });
    for (const [turn, line] of lines.entries()) {
      const replied = new Promise<void>((resolve) => {
        waiting = { lines: turn + 1, resolve };
      });
      stdin.write(`${line}\n`);
      await replied;
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
    stdin.end();
  }
  const code = await run.exited;
  const elapsed = performance.now() - started - (PAUSE_MS === 0 ? 0 : PAUSE_MS * TURNS);
  if (code !== 0) throw new Error(`aalis chat exited with ${code}:\n${run.stderr()}`);
  const replies = run.stdout().trim().split('\n').length;

  const bodies = server.chatBodies();
  // Conversation calls offer the tools; summary calls either send a transcript without tools or share the
  // conversation's prompt (same tools) with tool_choice 'none'.
  const isConversation = (body: Record<string, unknown>) =>
    Array.isArray(body.tools) &&
    body.tool_choice !== 'none' &&
    (body.tools as Array<{ function?: { name?: string } }>).some((tool) => tool.function?.name === 'calculator');
  const conversation = bodies.filter(isConversation);
  const other = bodies.length - conversation.length;
  const all = prefixShare(bodies.map(promptText));
  const turnsOnly = prefixShare(conversation.map(promptText));
  const lengths = conversation.map((body) => promptText(body).length);
  if (process.env.BENCH_DEBUG) {
    // Per request: index, kind, prompt length, characters not repeated, and where the new part starts.
    const prompts = bodies.map(promptText);
    repeatedPrefixes(prompts).forEach((best, index) => {
      const kind = isConversation(bodies[index]!) ? 'turn' : 'other';
      const prompt = prompts[index]!;
      console.log(
        index,
        kind,
        prompt.length,
        prompt.length - best,
        JSON.stringify(prompt.slice(best, best + Number(process.env.BENCH_DEBUG_CHARS ?? 120))),
      );
    });
  }
  const rejected = server.requests.filter((request) => request.rejected !== undefined).length;

  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  console.log(`turns                     ${TURNS} (${replies} replies printed), ${PAUSE_MS} ms pause after each reply`);
  console.log(
    `requests                  ${bodies.length} (${conversation.length} conversation, ${other} summary/other), ${rejected} rejected`,
  );
  console.log(`context window            ${CONTEXT_WINDOW} tokens`);
  console.log(
    `prompt size (chars)       min ${Math.min(...lengths)}, median ${lengths.sort((a, b) => a - b)[Math.floor(lengths.length / 2)]}, max ${Math.max(...lengths)}`,
  );
  console.log(
    `prefix share, all         ${percent(all.share)} (${all.repeated} of ${all.total} chars repeat an earlier request)`,
  );
  console.log(`prefix share, turns only  ${percent(turnsOnly.share)}`);
  console.log(`start-up + shutdown       ${startup.toFixed(0)} ms`);
  console.log(
    `ms per turn               ${((elapsed - startup) / TURNS).toFixed(1)} (${elapsed.toFixed(0)} ms for ${TURNS} turns, pauses excluded)`,
  );
  console.log(`goal ≥ 95% prefix share   ${all.share >= 0.95 ? 'met' : 'NOT met'}`);
} finally {
  await server.close();
  if (process.env.BENCH_KEEP) console.log(`workspace kept: ${workspace.dir}`);
  else workspace.remove();
}
