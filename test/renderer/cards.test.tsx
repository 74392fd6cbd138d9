import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Turn } from '../../src/shared/turn';
import { systemTurnText } from '../../src/shared/system-turns';
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
  it('renders a known source as its card, untrusted fields as text', () => {
    const html = renderToStaticMarkup(
      <SystemCard turn={system({ source: 'context-refused', meta: { estimate: 9000, window: 4096, model: '<img src=x onerror=alert(1)>', largest: [] } })} />,
    );
    expect(html).toContain('data-card="context-refused"');
    expect(html).toContain('9,000');
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

describe('one card per system-turn kind, text and card from the same meta (issue 16)', () => {
  const refused = {
    estimate: 9000,
    window: 4096,
    model: 'qwen<b>3</b>',
    largest: [
      { label: 'attachment report.pdf', turnId: 'u1', tokens: 7000 },
      { label: 'user message 1', turnId: 'u1', tokens: 1500 },
    ],
  };

  it('context-refused: numbers in words, the largest parts as a list, the advice once, nothing as JSON', () => {
    const html = renderToStaticMarkup(<SystemCard turn={system({ source: 'context-refused', meta: refused, blocks: [{ type: 'text', text: systemTurnText('context-refused', refused) ?? '' }] })} />);
    expect(html).toContain('data-card="context-refused"');
    // Grouped as the card's other numbers are ("n_ctx 2,048"); it read "About 9000 tokens needed".
    expect(html).toContain('About 9,000 tokens needed');
    expect(html).toContain('holds 4,096');
    expect(html).toMatch(/<li[^>]*>attachment report\.pdf[^<]*7,000 tokens<\/li>/);
    expect(html).not.toContain('turnId');
    expect(html).not.toContain('[{');
    expect(html.match(/Make room:/g)).toHaveLength(1);
    expect(html).toContain('qwen&lt;b&gt;3&lt;/b&gt;');
  });

  it('tool-approval: the text follows the decision, never the stale stored line', () => {
    const meta = { toolCallId: 'call1', tool: 'fetch_url', call: 'https://example.com/<script>', state: 'denied', decision: 'deny' };
    const html = renderToStaticMarkup(<SystemCard turn={system({ source: 'tool-approval', meta, blocks: [{ type: 'text', text: 'fetch_url wants to run: https://example.com/' }] })} />);
    expect(html).toContain('data-card="tool-approval"');
    expect(html).toContain('Not allowed');
    expect(html).not.toContain('wants to run');
    expect(html).toContain('https://example.com/&lt;script&gt;');
    expect(html).not.toContain('tool-deny');
    expect(systemTurnText('tool-approval', meta)).toBe('fetch_url was not allowed to run: https://example.com/<script>');
    expect(systemTurnText('tool-approval', { ...meta, state: 'pending' })).toBe('fetch_url wants to run: https://example.com/<script>');
  });

  // Tools audit #3: a card settled by a restart kept the pending "wants to run" line, with no state word.
  it('tool-approval left by a restart: says the call did not run because Firebrand closed, with no buttons', () => {
    const meta = { toolCallId: 'call_0', turnId: 'a1', tool: 'slow', server: 'custom', call: '{"seconds":60}', state: 'interrupted' };
    const html = renderToStaticMarkup(<SystemCard turn={system({ source: 'tool-approval', meta, blocks: [{ type: 'text', text: 'slow (from the tool server custom) wants to run: {"seconds":60}' }] })} />);
    expect(html).toContain('Not run.');
    expect(html).toContain('did not run: Firebrand closed while it waited for your approval.</p>');
    expect(html).not.toContain('wants to run');
    expect(html).not.toContain('tool-allow-once');
  });

  // Tools eyes pass: the card the user decides on showed an MCP call's arguments as one line of JSON
  // ("wants to run: {"path":"/home/me/.bashrc","content":"…"}"), and a call without any as "run: {}".
  it('tool-approval: an MCP call’s arguments one per row, as text; none said in words; the model’s text unchanged', () => {
    const call = '{"path":"/home/me/.bashrc","content":"<b>alias</b> ls=rm","mode":420}';
    const meta = { toolCallId: 'call_0', turnId: 'a1', tool: 'write_file', server: 'files', call, state: 'pending' };
    const html = renderToStaticMarkup(<SystemCard turn={system({ source: 'tool-approval', meta })} />);
    expect(html).toContain('write_file (from the tool server files) wants to run.</p>');
    expect(html).toContain('<dt>path</dt><dd>/home/me/.bashrc</dd>');
    expect(html).toContain('<dt>content</dt><dd>&lt;b&gt;alias&lt;/b&gt; ls=rm</dd>');
    expect(html).toContain('<dt>mode</dt><dd>420</dd>');
    expect(html).not.toContain('&quot;path&quot;');
    expect(html).toContain('data-testid="tool-allow-once"');
    const none = renderToStaticMarkup(<SystemCard turn={system({ source: 'tool-approval', meta: { ...meta, tool: 'get-env', call: '{}', state: 'allowed', decision: 'allow-once' } })} />);
    expect(none).toContain('get-env (from the tool server files) was allowed to run. It had no arguments.');
    expect(none).not.toContain('{}');
    // A call cut short is not JSON any more: it is shown as it is.
    const cut = renderToStaticMarkup(<SystemCard turn={system({ source: 'tool-approval', meta: { ...meta, call: '{"path":"/a","content":"abc…' } })} />);
    expect(cut).toContain('wants to run.</p><pre class="tool-raw" data-testid="approval-call">{&quot;path&quot;:&quot;/a&quot;,&quot;content&quot;:&quot;abc…</pre>');
    // What the model and an export read keeps the call as it was.
    expect(systemTurnText('tool-approval', meta)).toBe(`write_file (from the tool server files) wants to run: ${call}`);
  });

  // Tools pass 2: a settled card tacked the call onto its long sentence: "…closed while it waited for your approval, with
  // no arguments." or "…your approval: https://…". Each state is one sentence; what the call was asked comes after it.
  it('tool-approval: every state is one sentence, its arguments (or that it had none) after it', () => {
    const base = { toolCallId: 'call_0', turnId: 'a1', tool: 'get-env', server: 'files', call: '{}' };
    const text = (meta: Record<string, string>) => {
      const html = renderToStaticMarkup(<SystemCard turn={system({ source: 'tool-approval', meta: { ...base, ...meta } })} />);
      return /<p class="system-text"[^>]*>(.*?)<\/p>/.exec(html)?.[1]?.replace(/<[^>]+>/g, '') ?? '';
    };
    expect(text({ state: 'pending' })).toBe('Waiting for you. get-env (from the tool server files) wants to run. It has no arguments.');
    expect(text({ state: 'interrupted' })).toBe('Not run. get-env (from the tool server files) did not run: Firebrand closed while it waited for your approval. It had no arguments.');
    expect(text({ state: 'withdrawn', withdrawn: 'server-off' })).toBe('Not run. get-env (from the tool server files) did not run: its tool server was switched off in Settings → Tools while it waited for your approval. It had no arguments.');
    expect(text({ state: 'denied', decision: 'deny' })).toBe('Not allowed. get-env (from the tool server files) was not allowed to run. It had no arguments.');
    expect(text({ state: 'stopped' })).toBe('Stopped. Stopped before get-env (from the tool server files) ran. It had no arguments.');
    expect(text({ state: 'interrupted', call: '{"a":1}' })).toBe('Not run. get-env (from the tool server files) did not run: Firebrand closed while it waited for your approval.');
    // A call that is not JSON (a built-in tool's URL) comes after the sentence too, as it is.
    const url = renderToStaticMarkup(<SystemCard turn={system({ source: 'tool-approval', meta: { toolCallId: 'c', tool: 'fetch_url', call: 'https://example.com/', state: 'interrupted' } })} />);
    expect(url).toContain('fetch_url did not run: Firebrand closed while it waited for your approval.</p><pre class="tool-raw" data-testid="approval-call">https://example.com/</pre>');
  });

  it('error (step limit): its own card, its sentence from the meta', () => {
    const meta = { reason: 'step-limit', steps: 8 };
    const html = renderToStaticMarkup(<SystemCard turn={system({ source: 'error', meta, blocks: [{ type: 'text', text: 'old words' }] })} />);
    expect(html).toContain('data-card="error"');
    expect(html).toContain('Stopped after 8 steps');
    expect(html).not.toContain('old words');
    expect(html).not.toContain('step-limit');
  });

  it('a known kind whose meta does not fit (a row from an older build) shows its stored text', () => {
    const html = renderToStaticMarkup(<SystemCard turn={system({ source: 'context-refused', meta: { needed: 'lots' } })} />);
    expect(html).toContain('data-card="context-refused"');
    expect(html).toContain('The context is full.');
    expect(html).not.toContain('lots');
  });
});

describe('the cards of issue 21: a summary, what was left out, a chat continued, a summary that failed', () => {
  const compaction = { covered: ['u1', 'a1'], summary: 'They <b>counted</b> sheep.', tokensBefore: 4250, tokensAfter: 3020, counted: 'estimate', model: 'qwen<i>3</i>' };

  it('compaction: the numbers and the writer, the summary behind a disclosure, the covered turns; text from the same meta', () => {
    const text = systemTurnText('compaction', compaction)!;
    expect(text).toBe('Summary of the 2 messages before this point, written by qwen<i>3</i> to fit the context window:\n\nThey <b>counted</b> sheep.');
    const html = renderToStaticMarkup(<SystemCard turn={system({ source: 'compaction', meta: compaction, blocks: [{ type: 'text', text }] })} />);
    expect(html).toContain('data-card="compaction"');
    expect(html).toContain('from about 4,250 tokens to about 3,020 tokens');
    expect(html).toContain('data-testid="compaction-summary"');
    expect(html).toContain('They &lt;b&gt;counted&lt;/b&gt; sheep.');
    expect(html).toContain('qwen&lt;i&gt;3&lt;/i&gt;');
    expect(html).not.toContain('<b>');
    expect(html).toContain('data-testid="compaction-covered"');
    expect(html.match(/data-turn-id="(u1|a1)"/g)).toHaveLength(2);
  });

  it('compaction made on its own says so; a continued chat links back', () => {
    const auto = renderToStaticMarkup(<SystemCard turn={system({ source: 'compaction', meta: { ...compaction, auto: { threshold: 0.85 } } })} />);
    expect(auto).toContain('Made on its own at 85% of the window.');
    const from = renderToStaticMarkup(<SystemCard turn={system({ source: 'compaction', meta: { ...compaction, from: { conversationId: 'old', title: 'Sheep <talk>' } } })} />);
    expect(from).toContain('data-testid="compaction-from"');
    expect(from).toContain('data-conversation-id="old"');
    expect(from).toContain('Sheep &lt;talk&gt;');
    expect(systemTurnText('compaction', { ...compaction, from: { conversationId: 'old', title: 'Sheep' } })).toMatch(/^Summary of an earlier chat \(“Sheep”\) that this one continues/);
  });

  it('context-dropped: how many and how many tokens, in words; continued: a link to the new chat', () => {
    const meta = { turns: ['u1', 'a1'], count: 2, items: [], tokens: 1200, tokensBefore: 4250, tokensAfter: 3050, counted: 'server' };
    expect(systemTurnText('context-dropped', meta)).toBe(
      'Left out of what is sent to the model: the 2 messages before this point (1,200 tokens). They stay in this conversation. The request went from 4,250 to 3,050 tokens.',
    );
    const html = renderToStaticMarkup(<SystemCard turn={system({ source: 'context-dropped', meta, blocks: [{ type: 'text', text: systemTurnText('context-dropped', meta)! }] })} />);
    expect(html).toContain('data-card="context-dropped"');
    expect(html).toContain('data-testid="dropped-turns"');
    const continued = renderToStaticMarkup(<SystemCard turn={system({ source: 'continued', meta: { conversationId: 'new', title: 'Sheep (continued)' } })} />);
    expect(continued).toContain('data-testid="continued-open"');
    expect(continued).toContain('data-conversation-id="new"');
  });

  it('a summary that failed is an error card that says nothing was replaced', () => {
    const meta = { reason: 'summary-failed', model: 'm', why: 'thinking-only' };
    const html = renderToStaticMarkup(<SystemCard turn={system({ source: 'error', meta })} />);
    expect(html).toContain('data-card="error"');
    expect(html).toContain('data-reason="summary-failed"');
    expect(html).toContain('m only reasoned and wrote no summary. Nothing was replaced');
  });
});

describe('ToolCallCard', () => {
  it('shows name, each argument on its own line (no raw JSON or internal fields), state and result as text', () => {
    const html = renderToStaticMarkup(
      <ToolCallCard
        call={{ type: 'tool_call', id: 'a', name: 'get_weather', state: 'complete', argumentsRaw: '{"city":"Paris"}', arguments: { city: 'Paris' } }}
        answer={{ result: { type: 'tool_result', toolCallId: 'a', name: 'get_weather', content: '<b>18°C</b>', isError: false }, images: [] }}
      />,
    );
    expect(html).toContain('data-card="tool-call"');
    expect(html).toContain('get_weather');
    expect(html).toContain('<dt>city</dt><dd>Paris</dd>');
    expect(html).not.toContain('&quot;city&quot;');
    expect(html.replace(/<[^>]+>/g, ' ')).not.toMatch(/tool ?call ?id|state/i);
    expect(html).toContain('Done');
    expect(html).toContain('&lt;b&gt;18°C&lt;/b&gt;');
  });

  it('shows why an invalid call is invalid', () => {
    const html = renderToStaticMarkup(
      <ToolCallCard call={{ type: 'tool_call', id: 'a', name: 'f', state: 'invalid', argumentsRaw: '{oops', error: 'Arguments are not JSON' }} />,
    );
    expect(html).toContain('data-state="invalid"');
    expect(html).toContain('Arguments are not JSON');
  });

  // Tools eyes pass: a call the tool's schema refused (a number sent as text) showed its arguments as one line of raw
  // JSON, and "What went wrong" opened on the red line's sentence again, word for word.
  it('a call its schema refused shows its arguments as rows and says what went wrong once', () => {
    const error = 'Arguments for get-sum are invalid: a must be a number.';
    const call = { type: 'tool_call', id: 'a', name: 'get-sum', state: 'invalid', argumentsRaw: '{"a":"x","b":2}', error } as const;
    const html = renderToStaticMarkup(<ToolCallCard call={call} answer={{ result: { type: 'tool_result', toolCallId: 'a', name: call.name, content: error, isError: true }, images: [] }} />);
    expect(html).toContain('<dt>a</dt><dd>x</dd>');
    expect(html).toContain('<dt>b</dt><dd>2</dd>');
    expect(html).not.toContain('&quot;a&quot;');
    expect(html).toContain('Failed');
    expect(html.split(error).length - 1).toBe(1);
    // Arguments that are not an object are still shown as they came.
    const broken = renderToStaticMarkup(<ToolCallCard call={{ ...call, argumentsRaw: '{"a": 1, "b"' }} />);
    expect(broken).toContain('<pre class="tool-raw">{&quot;a&quot;: 1, &quot;b&quot;</pre>');
  });

  // Tools eyes pass: a tool that answers in JSON (server-everything's get-structured-content) showed it as one run-on
  // line, {"temperature":33,"conditions":"Cloudy","humidity":82}, wrapped mid-word on a phone.
  it('lays out a result that is JSON one field per line; other results as they came', () => {
    const call = { type: 'tool_call', id: 'a', name: 'get-structured-content', state: 'complete', argumentsRaw: '{}', arguments: {} } as const;
    const result = (content: string) => renderToStaticMarkup(<ToolCallCard call={call} answer={{ result: { type: 'tool_result', toolCallId: 'a', name: call.name, content, isError: false }, images: [] }} />);
    expect(result('{"temperature":33,"conditions":"<b>Cloudy</b>"}')).toContain('<pre>{\n  &quot;temperature&quot;: 33,\n  &quot;conditions&quot;: &quot;&lt;b&gt;Cloudy&lt;/b&gt;&quot;\n}</pre>');
    expect(result('[1,2]')).toContain('<pre>[\n  1,\n  2\n]</pre>');
    expect(result('{not json} at all')).toContain('<pre>{not json} at all</pre>');
    expect(result('Echo: hi')).toContain('<pre>Echo: hi</pre>');
  });

  // Tools pass 2: the filesystem server's error was shown only as it gave it, "ENOENT: no such file or directory, open
  // '/…'", Node's words. A well-known code now leads with a plain sentence; the server's words stay, as the model read them.
  it('a failed call with a well-known system error leads with a plain sentence and keeps the server’s words', () => {
    const call = { type: 'tool_call', id: 'a', name: 'read_text_file', state: 'complete', argumentsRaw: '{}', arguments: {} } as const;
    const card = (content: string, isError = true) => renderToStaticMarkup(<ToolCallCard call={call} answer={{ result: { type: 'tool_result', toolCallId: 'a', name: call.name, content, isError }, images: [] }} />);
    const lead = (html: string) => /data-testid="tool-error-lead">([^<]*)</.exec(html)?.[1];
    const missing = card("ENOENT: no such file or directory, open '/home/me/notes.txt'");
    expect(lead(missing)).toBe('There is no file or folder at /home/me/notes.txt.');
    expect(missing).toContain('<pre>ENOENT: no such file or directory, open &#x27;/home/me/notes.txt&#x27;</pre>');
    expect(lead(card("Error: EACCES: permission denied, open '/root/x'"))).toBe('The tool server was not allowed to open /root/x: permission denied.');
    expect(lead(card("EISDIR: illegal operation on a directory, read"))).toBe('That is a folder, where a file was needed.');
    expect(lead(card("ENOTDIR: not a directory, scandir '/home/me/notes.txt'"))).toBe('/home/me/notes.txt is not a folder.');
    // Other errors, and a result that only quotes such an error, are shown as they came.
    expect(lead(card('Access denied - path outside allowed directories: /etc/passwd'))).toBeUndefined();
    expect(lead(card("ENOENT: no such file or directory, open '/x'", false))).toBeUndefined();
  });

  // Chat audit #4: an MCP call stopped while it ran showed a red "Failed" and "What went wrong".
  it('a call the user stopped while it ran reads Stopped, not Failed', () => {
    const call = { type: 'tool_call', id: 'a', name: 'trigger-long-running-operation', state: 'complete', argumentsRaw: '{}', arguments: {} } as const;
    const content = 'Stopped by the user; everything was asked to cancel the call.';
    const html = renderToStaticMarkup(<ToolCallCard call={call} answer={{ result: { type: 'tool_result', toolCallId: 'a', name: call.name, content, isError: true, stopped: true }, images: [] }} />);
    expect(html).toContain('data-result="stopped"');
    expect(html).not.toContain('Failed');
    expect(html).not.toContain(' bad');
    expect(html).toMatch(/Stopped<\/span>/);
    expect(html).toContain('<summary>What happened</summary>');
    // A call that never ran says why, not "what went wrong" (both are error results to the model).
    const notRun = renderToStaticMarkup(<ToolCallCard call={call} answer={{ result: { type: 'tool_result', toolCallId: 'a', name: call.name, content: 'Not run: stopped by the user.', isError: true, notRun: true }, images: [] }} />);
    expect(notRun).toContain('<summary>Why it did not run</summary>');
  });
});
