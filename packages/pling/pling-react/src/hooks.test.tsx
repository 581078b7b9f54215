// Server rendering runs no effects, which is what these check: hooks read without creating the runtime, and
// declarations are validated while rendering. What the effects do is covered by the browser tests.
import type { LlmClient } from '@plingjs/agent';
import { PageError } from '@plingjs/core';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AgentDock } from './agent-dock.js';
import { createPling, type Pling } from './create-pling.js';
import { PlingProvider, usePling } from './pling-provider.js';
import { useAction } from './use-action.js';
import { useAgentRuntime } from './use-agent-runtime.js';
import { useAgentSession } from './use-agent-session.js';
import { useTelemetry } from './use-telemetry.js';

const llm: LlmClient = { complete: async () => ({ content: 'hi there', toolCalls: [] }) };

function Probe({ sessionId }: { sessionId?: string }) {
  const runtime = useAgentRuntime();
  const session = useAgentSession(sessionId);
  const telemetry = useTelemetry();
  return (
    <p>
      {runtime ? 'runtime' : 'no runtime'} /{' '}
      {session ? `${session.id}:${session.status}:${session.messageCount}` : 'no session'} /{' '}
      {telemetry ? `calls ${telemetry.modelCalls}` : 'no telemetry'}
    </p>
  );
}

function Reader() {
  return <p>{usePling().locale}</p>;
}

function Declares({ id }: { id: string }) {
  useAction({ id, description: 'Adds a todo', parameters: { type: 'object' }, handler: () => true });
  return null;
}

function inProvider(pling: Pling, children: ReactNode): string {
  return renderToStaticMarkup(<PlingProvider pling={pling}>{children}</PlingProvider>);
}

describe('hooks', () => {
  it('usePling and AgentDock outside a provider throw PLING_NOT_PROVIDED', () => {
    for (const element of [<Reader key="reader" />, <AgentDock key="dock" />]) {
      let thrown: unknown;
      try {
        renderToStaticMarkup(element);
      } catch (error) {
        thrown = error;
      }
      expect(PageError.isInstance(thrown)).toBe(true);
      expect(thrown).toMatchObject({ code: 'PLING_NOT_PROVIDED', message: expect.stringContaining('<PlingProvider') });
      expect((thrown as Error).message).toMatch(
        /必须渲染在 <PlingProvider[\s\S]*must be rendered inside <PlingProvider/,
      );
    }
  });

  it('useAgentRuntime, useAgentSession and useTelemetry do not create the runtime; they read it once it exists', async () => {
    const pling = createPling({ agent: { config: { model: 'm' }, llm } });
    expect(inProvider(pling, <Probe />)).toBe('<p>no runtime / no session / no telemetry</p>');
    expect(pling.started).toBe(false);
    await pling.session('s1').send('hello');
    expect(inProvider(pling, <Probe sessionId="s1" />)).toBe('<p>runtime / s1:idle:2 / calls 1</p>');
    expect(inProvider(pling, <Probe />)).toBe('<p>runtime / default:idle:0 / calls 1</p>');
  });

  it('AgentDock makes its model in an effect: nothing on the server, and the runtime is left alone', () => {
    const pling = createPling({ agent: { config: { model: 'm' }, llm } });
    expect(inProvider(pling, <AgentDock title="Orders" />)).toBe('');
    expect(pling.started).toBe(false);
  });

  it('useAction validates the declaration while rendering and registers nothing before an effect runs', () => {
    const pling = createPling();
    expect(inProvider(pling, <Declares id="add_todo" />)).toBe('');
    expect(pling.page.actions.list()).toEqual([]);
    expect(() => inProvider(pling, <Declares id="add todo" />)).toThrow(
      expect.objectContaining({ code: 'INVALID_ACTION_ID' }),
    );
  });
});
