// Conformance: the Memory page's requests through a real host (the default plugin set: profiles, skills, long-term
// memory). What she was told with the tools is listed per person and per place; the owner sees everyone's, another
// account only its own and is refused (AALIS_WEBUI_FORBIDDEN) reaching for anyone else's; edits and deletions
// take effect, a deleted fact is gone from the profile and from long-term memory's search; bad input is coded.
import type { SessionClient } from '@aalis/session-client';
import { textReply, toolCallReply } from '@aalis/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { clientFor, hostPerFile, loginCookie, Recorder } from './harness.case.js';

const file = hostPerFile();
const { host, connected, track } = file;
let aliceCookie: string;

beforeAll(async () => {
  aliceCookie = await loginCookie(host, 'alice');
});

async function alice(): Promise<SessionClient> {
  const client = track(clientFor(host, aliceCookie));
  await client.connect();
  return client;
}

/** One turn in a new session of the client's account, the model calling `calls` first. */
async function turn(
  client: SessionClient,
  text: string,
  calls: { name: string; arguments: Record<string, unknown> }[],
) {
  const { session } = await client.request('session.create', {});
  const recorder = new Recorder();
  await client.subscribe(session.id, recorder.handlers).ready;
  host.model.enqueue(toolCallReply(calls), textReply('Noted.'));
  await client.send({ sessionId: session.id, text });
  await recorder.until(() => recorder.of('turn.ended').length === 1);
  return session.id;
}

describe('memory requests', () => {
  it('lists what the tools kept, per person and per place; a non-owner sees only their own', async () => {
    const owner = await connected();
    await turn(owner, 'Remember that I like jasmine tea', [
      { name: 'memory_remember', arguments: { fact: 'likes jasmine tea' } },
    ]);
    const mine = await alice();
    await turn(mine, 'I play the cello; and save how I tune it', [
      { name: 'memory_remember', arguments: { fact: 'plays the cello' } },
      { name: 'skill_save', arguments: { name: 'tune the cello', content: 'A string first, then D, G, C.' } },
    ]);

    const ownerView = await owner.request('memory.list', {});
    expect(ownerView).toMatchObject({
      all: true,
      person: 'owner',
      available: { profiles: true, skills: true, recall: true },
    });
    expect(ownerView.facts.map((fact) => fact.fact)).toEqual(['likes jasmine tea']);
    expect(ownerView.people.map((entry) => entry.person).sort()).toEqual(['owner', 'webui:alice']);
    expect(ownerView.skills.map((skill) => [skill.name, skill.scope])).toEqual([
      ['tune the cello', 'private:webui:alice'],
    ]);
    expect(ownerView.index?.indexed).toBeGreaterThan(0);
    const ofAlice = await owner.request('memory.list', { person: 'webui:alice' });
    expect(ofAlice.facts.map((fact) => fact.fact)).toEqual(['plays the cello']);

    const aliceView = await mine.request('memory.list', {});
    expect(aliceView).toMatchObject({ all: false, person: 'webui:alice' });
    expect(aliceView.people.map((entry) => entry.person)).toEqual(['webui:alice']);
    expect(aliceView.facts.map((fact) => fact.fact)).toEqual(['plays the cello']);
    expect(aliceView.skills.map((skill) => skill.name)).toEqual(['tune the cello']);
    expect(aliceView.index).toBeUndefined();
    expect((aliceView.recalls ?? []).every((record) => record.sessionId.startsWith('webui:alice:'))).toBe(true);
  });

  it('refuses a non-owner reading, editing or deleting another person’s memory, and keeps it as it was', async () => {
    const owner = await connected();
    const mine = await alice();
    await expect(mine.request('memory.list', { person: 'owner' })).rejects.toMatchObject({
      code: 'AALIS_WEBUI_FORBIDDEN',
    });
    const ownerFact = (await owner.request('memory.list', {})).facts[0]!;
    await expect(
      mine.request('memory.update', { kind: 'fact', itemId: ownerFact.id, text: 'hates tea' }),
    ).rejects.toMatchObject({ code: 'AALIS_WEBUI_FORBIDDEN' });
    await expect(mine.request('memory.delete', { kind: 'fact', itemId: ownerFact.id })).rejects.toMatchObject({
      code: 'AALIS_WEBUI_FORBIDDEN',
    });
    const search = await mine.request('memory.search', { query: 'jasmine' });
    expect(search.facts).toEqual([]);
    expect(search.messages.some((message) => message.text.includes('jasmine'))).toBe(false);
    expect((await owner.request('memory.list', {})).facts).toEqual([ownerFact]);
  });

  it('edits a fact and a skill of one’s own; coded errors for bad input and what is gone', async () => {
    const mine = await alice();
    const view = await mine.request('memory.list', {});
    const fact = view.facts[0]!;
    const edited = await mine.request('memory.update', {
      kind: 'fact',
      itemId: fact.id,
      text: 'plays the cello and the viola',
    });
    expect(edited.fact).toMatchObject({ id: fact.id, fact: 'plays the cello and the viola', source: 'page' });
    const skill = view.skills[0]!;
    const renamed = await mine.request('memory.update', { kind: 'skill', itemId: skill.id, name: 'tune a cello' });
    expect(renamed.skill).toMatchObject({
      id: skill.id,
      name: 'tune a cello',
      content: 'A string first, then D, G, C.',
    });
    await expect(
      mine.request('memory.update', { kind: 'fact', itemId: fact.id, text: 'x'.repeat(600) }),
    ).rejects.toMatchObject({
      code: 'AALIS_PROFILE_FACT_TOO_LONG',
    });
    await expect(
      mine.request('memory.delete', { ...JSON.parse('{"kind":"note"}'), itemId: fact.id }),
    ).rejects.toMatchObject({
      code: 'AALIS_WEBUI_BAD_REQUEST',
    });
    await expect(mine.request('memory.search', { query: '' })).rejects.toMatchObject({
      code: 'AALIS_WEBUI_BAD_REQUEST',
    });
    expect(await mine.request('memory.delete', { kind: 'skill', itemId: skill.id })).toEqual({
      deleted: true,
      messages: 0,
    });
    expect(await mine.request('memory.delete', { kind: 'skill', itemId: skill.id })).toEqual({
      deleted: false,
      messages: 0,
    });
    await expect(mine.request('memory.update', { kind: 'skill', itemId: skill.id, name: 'x' })).rejects.toMatchObject({
      code: 'AALIS_SKILLS_UNKNOWN',
    });
  });

  it('deleting a fact forgets it and what its person said about it: a later search finds it nowhere', async () => {
    const owner = await connected();
    const before = await owner.request('memory.search', { query: 'jasmine tea' });
    expect(before.facts.map((fact) => fact.fact)).toEqual(['likes jasmine tea']);
    expect(before.messages.some((message) => message.text.includes('I like jasmine tea'))).toBe(true);
    const deleted = await owner.request('memory.delete', { kind: 'fact', itemId: before.facts[0]!.id });
    expect(deleted.deleted).toBe(true);
    expect(deleted.messages).toBeGreaterThanOrEqual(1);
    const after = await owner.request('memory.search', { query: 'jasmine tea' });
    expect(after).toEqual({ facts: [], skills: [], messages: [] });
    expect((await owner.request('memory.list', {})).facts).toEqual([]);
  });
});
