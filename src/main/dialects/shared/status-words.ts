/**
 * A failed HTTP answer that carries no message of the server's own (an empty body, or a web page: a proxy's
 * "502 Bad Gateway", a gateway's login page), said in the user's words with what to do. A web page's markup is never
 * shown: its title (or first heading) names it.
 */

/** The title, or else the first heading, of an HTML page, its tags dropped; undefined for a body that is not a page. */
export function pageTitle(body: string): string | undefined {
  const text = body.trim();
  if (!text.startsWith('<')) return undefined;
  const found = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text) ?? /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(text);
  const words = found?.[1]
    ?.replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\s+/g, ' ')
    .trim();
  if (!words) return '';
  return words.length > 120 ? `${words.slice(0, 120)}…` : words;
}

/** What a web page answered in place of a model's answer (HTTP 200) says, named by its title, never its markup. */
export function webPageInPlaceOfAnswer(body: string): string {
  const title = pageTitle(body);
  return `The server answered with a web page${title ? ` ("${title}")` : ''}, not an answer: is this the model server's address, and does it need a sign-in first? Check it in Settings → Connections.`;
}

/** What a status means for the user and what to do, where it says something; undefined where it does not. */
function advice(status: number): string | undefined {
  if (status === 502 || status === 504) return 'a proxy in front of it got no answer from it. Is the server running?';
  if (status === 503) return 'it is not ready (loading a model, or busy). Try again in a moment.';
  if (status === 401 || status === 403) return 'it refused the request. Check the API key in Settings → Connections.';
  if (status >= 500) return 'it failed while answering. Try again; if it goes on, see its log.';
  return undefined;
}

/**
 * "`who` answered HTTP 502 with a web page ("502 Bad Gateway"): a proxy in front of it got no answer from it. Is the
 * server running?" `body` is what came with the status (a page is named by its title); `extra` is said where the
 * status has no advice of its own (Ollama's 404).
 */
export function statusInWords(who: string, status: number, body: string, extra?: string): string {
  const title = pageTitle(body);
  const page = title === undefined ? '' : title === '' ? ' with a web page' : ` with a web page ("${title}")`;
  const what = advice(status);
  return `${who} answered HTTP ${status}${page}${what ? `: ${what}` : extra ? ` ${extra}` : ''}${what || extra ? '' : '.'}`;
}
