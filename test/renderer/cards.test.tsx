import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Turn } from '../../src/shared/turn';
import { SystemCard } from '../../src/renderer/components/turn/SystemCard';
import { ToolCallCard } from '../../src/renderer/components/turn/ToolCallCard';

const system = (over: Partial<Turn>): Turn => ({
  id: 't1',
  conversationId: 'c1',
  parentId: null,
  role: 'system',
  blocks: [{ type: 'text', text: 'The context is full.' }],
  meta: {},
  status: 'done',
  createdAt: 0,
  ...over,
});

describe('SystemCard', () => {
  it('renders a known source as its card, every meta field as text', () => {
    const html = renderToStaticMarkup(
      <SystemCard turn={system({ source: 'context-refused', meta: { estimate: 9000, window: 4096, note: '<img src=x onerror=alert(1)>' } })} />,
    );
    expect(html).toContain('data-card="context-refused"');
    expect(html).toContain('9000');
    expect(html).toContain('&lt;img src=x');
    expect(html).not.toContain('<img');
  });

  it('renders an unknown source (a row from before its kind existed) as plain text', () => {
    const html = renderToStaticMarkup(<SystemCard turn={system({ source: 'from-the-future', meta: { x: 1 } })} />);
    expect(html).not.toContain('data-card');
    expect(html).toContain('The context is full.');
  });

  it('offers approve/deny on a pending tool-approval card only', () => {
    const pending = renderToStaticMarkup(<SystemCard turn={system({ source: 'tool-approval', meta: { toolCallId: 'call1', turnId: 'a1', tool: 'fetch_url', state: 'pending' } })} />);
    expect(pending).toContain('data-testid="tool-allow-once"');
    expect(pending).toContain('data-testid="tool-deny"');
    const decided = renderToStaticMarkup(<SystemCard turn={system({ source: 'tool-approval', meta: { toolCallId: 'call1', state: 'allowed' } })} />);
    expect(decided).not.toContain('tool-deny');
  });
});

describe('ToolCallCard', () => {
  it('shows name, pretty arguments, state and result as text', () => {
    const html = renderToStaticMarkup(
      <ToolCallCard
        call={{ type: 'tool_call', id: 'a', name: 'get_weather', state: 'complete', argumentsRaw: '{"city":"Paris"}', arguments: { city: 'Paris' } }}
        result={{ type: 'tool_result', toolCallId: 'a', name: 'get_weather', content: '<b>18°C</b>', isError: false }}
      />,
    );
    expect(html).toContain('data-card="tool-call"');
    expect(html).toContain('get_weather');
    expect(html).toContain('&quot;city&quot;: &quot;Paris&quot;');
    expect(html).toContain('&lt;b&gt;18°C&lt;/b&gt;');
  });

  it('shows why an invalid call is invalid', () => {
    const html = renderToStaticMarkup(
      <ToolCallCard call={{ type: 'tool_call', id: 'a', name: 'f', state: 'invalid', argumentsRaw: '{oops', error: 'Arguments are not JSON' }} />,
    );
    expect(html).toContain('data-state="invalid"');
    expect(html).toContain('Arguments are not JSON');
  });
});
