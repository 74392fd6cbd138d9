/**
 * An address typed as a host alone ("localhost", "127.0.0.1", "gpu-box.local") was refused in Settings, its port
 * "not guessed", though the form knows the server's kind: Ollama listens on 11434 and llama-server on 8080 unless told
 * another. It is saved with http:// and the kind's usual port, and the note says so ("Saved as
 * http://localhost:8080, llama-server's usual port."); a kind with no usual port asks for the port. The replay
 * server's port is random, so no working connection can be typed as a host alone: what is shown, what is saved, and
 * what Test connection says of the address it tried (nothing listens there) are checked.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { shootAtBothWidths } from './helpers/screenshots';
import { chatRoutes, ollamaLines, startUi, stopUi, type UiSession } from './helpers/ui-session';

let s: UiSession | undefined;
afterEach(async () => {
  await stopUi(s);
  s = undefined;
});

describe('a server address typed as a host alone', () => {
  it("is saved with http:// and the kind's usual port, in the add and edit forms, and the note says so", async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Hi' }])));
    const { page } = s;
    await page.getByTestId('settings-open').click();
    await page.getByTestId('connection-add-kind').selectOption('llama-server');
    await page.getByTestId('connection-add-label').fill('Desk llama');
    await page.getByTestId('connection-add-url').fill(' localhost ');
    await page.getByTestId('connection-add').click();
    const item = page.locator('[data-testid="connection-item"][data-kind="llama-server"]');
    await expect.poll(() => item.getByTestId('connection-url').textContent()).toBe('http://localhost:8080');
    expect(await page.getByTestId('connection-note').textContent()).toBe("Saved as http://localhost:8080, llama-server's usual port.");
    expect(await page.getByTestId('connection-error').count()).toBe(0);
    expect((await page.evaluate(() => window.firebrand.connections.list({}))).find((c) => c.kind === 'llama-server')?.baseUrl).toBe('http://localhost:8080');
    await shootAtBothWidths(page, 'connection-port-assumed', '[data-testid="connection-note"]');

    // The editor: a name with dots and a path (main drops a llama-server's /v1, and the note says both).
    await item.getByTestId('connection-edit-open').click();
    await item.getByTestId('connection-edit-url').fill('gpu-box.local/v1');
    await item.getByTestId('connection-edit-save').click();
    await expect.poll(() => item.getByTestId('connection-url').textContent()).toBe('http://gpu-box.local:8080');
    expect(await page.getByTestId('connection-note').textContent()).toBe(
      "Saved as http://gpu-box.local:8080, llama-server's usual port: Firebrand adds /v1/… to the address itself, so the /v1 at its end was left out.",
    );

    // An OpenAI-compatible server has no one usual port (LM Studio 1234, vLLM 8000): its port is asked for.
    await page.getByTestId('connection-add-kind').selectOption('openai-compatible');
    await page.getByTestId('connection-add-url').fill('lmstudio.local');
    await page.getByTestId('connection-add').click();
    await expect
      .poll(() => page.getByTestId('connection-error').textContent())
      .toBe("Add the port the server listens on, such as lmstudio.local:1234 (LM Studio's), or enter an address that starts with http:// or https://");
    expect(await page.locator('[data-testid="connection-item"][data-kind="openai-compatible"]').count()).toBe(0);
    // Anthropic's API is https on a cloud host, with no port to add: its https:// is asked for, not LM Studio's port.
    await page.getByTestId('connection-add-kind').selectOption('anthropic');
    await page.getByTestId('connection-add-url').fill('api.anthropic.com');
    await page.getByTestId('connection-add').click();
    await expect.poll(() => page.getByTestId('connection-error').textContent()).toBe('Enter the address with https:// before it: https://api.anthropic.com');
  });

  it("takes the Ollama address typed as a host alone as Ollama's usual port, and Test connection names the address it tried", async () => {
    s = await startUi(chatRoutes(ollamaLines([{ content: 'Hi' }])));
    const { page } = s;
    await page.getByTestId('settings-open').click();
    // 127.0.0.2, not 127.0.0.1: an Ollama running on the machine that runs the tests listens on 127.0.0.1:11434.
    await page.getByTestId('settings-ollama-url').fill('127.0.0.2');
    // The dialog closes on Save, so the port is said as it is typed, under the field in the Ollama row.
    await expect.poll(() => page.getByTestId('settings-ollama-url-note').textContent()).toBe("Will be saved as http://127.0.0.2:11434, Ollama's usual port.");
    const ollama = page.locator('[data-testid="connection-item"][data-connection-id="ollama"]');
    expect(await ollama.getByTestId('settings-ollama-url-note').count()).toBe(1);
    // Nothing listens there in the tests (the replay server's port is random): the failure names what was tried.
    await ollama.getByTestId('connection-test').click();
    const result = ollama.getByTestId('connection-test-result');
    await expect.poll(() => result.getAttribute('data-ok'), { timeout: 15_000 }).toBe('false');
    expect(await result.textContent()).toContain('http://127.0.0.2:11434');
    await shootAtBothWidths(page, 'ollama-port-assumed', '[data-testid="connection-test-result"]');

    // A scheme typed keeps its meaning (http:// is port 80): no port is assumed, and no note shows.
    await page.getByTestId('settings-ollama-url').fill('http://127.0.0.1');
    await expect.poll(() => page.getByTestId('settings-ollama-url-note').count()).toBe(0);

    await page.getByTestId('settings-ollama-url').fill('127.0.0.1');
    await page.getByTestId('settings-save').click();
    await page.getByTestId('settings-dialog').waitFor({ state: 'detached' });
    expect((await page.evaluate(() => window.firebrand.settings.get({}))).ollamaUrl).toBe('http://127.0.0.1:11434');
  });
});
