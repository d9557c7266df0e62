import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** An IP address and the special-purpose range it falls in (ipaddr.js's names), or `unicast` for a global one. */
export interface AddressClassification {
  address: string;
  /** `unicast` for a globally routable address; else the range, e.g. `loopback`, `private`, `carrierGradeNat`, `rfc6052` (NAT64), `6to4`. */
  range: string;
  /** True when a status list fetch may connect to it without the host being listed as internal. */
  public: boolean;
}

// IPv6 unicast is allocated from 2000::/3 only; anything outside it that is not in a
// named range (e.g. the deprecated IPv4-compatible ::a.b.c.d, ::/96) is refused too.
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/**
 * Classifies an address with ipaddr.js's registry of IANA special-purpose ranges
 * (RFC 6890 and successors). Public means `unicast`: every named range is
 * refused — loopback, private (10/8, 172.16/12, 192.168/16, fc00::/7), link-local,
 * CGNAT 100.64/10, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4 2002::/16, Teredo,
 * benchmarking 198.18/15 and 2001:2::/48, documentation, multicast, broadcast,
 * unspecified and reserved. An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is judged
 * as the IPv4 address it reaches. A string that is not an IP address is not public.
 */
export function classifyAddress(address: string): AddressClassification {
  const text = canonicalAddress(address.replace(/^\[|\]$/g, ''));
  if (text === undefined) return { address, range: 'invalid', public: false };
  let parsed = ipaddr.parse(text);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  let range: string = parsed.range();
  if (range === 'unicast' && parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.match(IPV4_COMPATIBLE)) range = 'ipv4Compatible';
    else if (!v6.match(IPV6_GLOBAL_UNICAST)) range = 'unallocated';
  }
  return { address, range, public: range === 'unicast' };
}

/**
 * The address as a socket would use it, or undefined when it is not an IP address.
 * IPv4 only as four decimal parts (what `net.isIP` takes; other spellings such as
 * `1.2.3` are host names, resolved and checked after resolution). IPv6 in the WHATWG
 * URL serialisation (all hex), because ipaddr.js reads a trailing dotted quad as
 * IPv4-mapped even when the address is `::a.b.c.d` (IPv4-compatible, another range).
 */
function canonicalAddress(text: string): string | undefined {
  const family = isIP(text);
  if (family === 4) return text;
  if (family !== 6) return undefined;
  try {
    return new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    return undefined; // e.g. a zone id (fe80::1%eth0): never public anyway
  }
}
