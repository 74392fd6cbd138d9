/**
 * Which network addresses `fetch_url` may connect to (issue 15). A fetched page can tell the model what to fetch
 * next, and "allow in this chat" lets those fetches run without asking again, so the model's reach must stop at
 * the public internet: not this computer (loopback), not the user's network (private, unique-local, CGNAT), not
 * a cloud box's metadata service (link-local; AWS's fd00:ec2::254 is unique-local), and nothing that is not one
 * host (multicast, broadcast, unspecified, reserved ranges).
 *
 * Addresses are classified by ipaddr.js, never by string prefix: an IPv4 address hidden inside an IPv6 one
 * (IPv4-mapped `::ffff:a9fe:a9fe`, NAT64 `64:ff9b::a9fe:a9fe`, 6to4 `2002:a9fe:a9fe::`) is unwrapped and judged
 * as the IPv4 address it reaches. Names are judged by every address they resolve to (src/main/tools/fetch-url.ts).
 */
import ipaddr from 'ipaddr.js';

/** What each refused range is, in words for the model and the user. */
const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback address (this computer)',
  private: 'a private network address',
  uniqueLocal: 'a private network address (IPv6 unique-local)',
  carrierGradeNat: 'a shared private address (100.64/10)',
  linkLocal: 'a link-local address (where cloud metadata services live)',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  unspecified: 'the unspecified address',
  teredo: 'a Teredo tunnel address',
  deprecatedSiteLocal: 'a site-local address',
};

export interface AddressVerdict {
  /** The address as classified (for an embedded IPv4 address, that address). */
  address: string;
  range: string;
  /** Why it may not be fetched; undefined when it may. */
  refusal?: string;
}

/** ipaddr's range of an address, after unwrapping an IPv4 address carried inside an IPv6 one. */
export function classifyAddress(text: string): AddressVerdict {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(text.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return { address: text, range: 'invalid', refusal: `${text} is not an IP address` };
  }
  const embedded = embeddedIPv4(addr);
  const judged = embedded ?? addr;
  const range = judged.range();
  const address = judged.toString();
  if (range === 'unicast') return { address, range };
  const what = RANGE_WORDS[range] ?? `a reserved address (${range})`;
  const via = embedded ? ` (inside ${addr.toString()})` : '';
  return { address, range, refusal: `${address}${via} is ${what}; fetch_url reads public web pages only.` };
}

/** The IPv4 address an IPv6 address forwards to, for the forms that embed one in a known place. */
function embeddedIPv4(addr: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | undefined {
  if (addr.kind() !== 'ipv6') return undefined;
  const v6 = addr as ipaddr.IPv6;
  const range = v6.range();
  const parts = v6.parts;
  const fromWords = (hi: number, lo: number) => ipaddr.IPv4.parse(`${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`);
  // ::ffff:a.b.c.d, ::ffff:0:a.b.c.d, 64:ff9b::a.b.c.d (and RFC 8215's 64:ff9b:1::/48): the last 32 bits.
  if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052') return fromWords(parts[6] ?? 0, parts[7] ?? 0);
  // 2002:AABB:CCDD::/48 is 6to4 for AA.BB.CC.DD.
  if (range === '6to4') return fromWords(parts[1] ?? 0, parts[2] ?? 0);
  // The deprecated IPv4-compatible form ::a.b.c.d (not ::, not ::1).
  if (parts.slice(0, 6).every((p) => p === 0) && ((parts[6] ?? 0) !== 0 || (parts[7] ?? 0) > 1)) return fromWords(parts[6] ?? 0, parts[7] ?? 0);
  return undefined;
}

/** Host names that are metadata services by name, refused before any lookup (belt and braces: they resolve to link-local). */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata', 'metadata.azure.com', 'instance-data', 'instance-data.ec2.internal']);

export function refuseHostName(hostname: string): string | undefined {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (METADATA_NAMES.has(name)) return `${hostname} is a cloud metadata service; fetch_url reads public web pages only.`;
  if (name === 'localhost' || name.endsWith('.localhost')) return `${hostname} is this computer; fetch_url reads public web pages only.`;
  return undefined;
}
