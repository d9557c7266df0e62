import ipaddr from 'ipaddr.js';

/**
 * The rate-limit key of a client address: an IPv4 address as it is (an IPv4-mapped IPv6
 * address, `::ffff:192.0.2.1`, is its IPv4 address), an IPv6 address as its network of
 * `ipv6PrefixLength` bits (`2001:db8:1:2::/64`). One subscriber, one host or one cloud VM
 * gets a whole /64 (RFC 6177, RFC 8273), so counting each /128 would give whoever holds a
 * /64 2^64 buckets; counting the /64 gives them one. Anything that is not an address
 * (Fastify always gives one) is its own key.
 */
export function clientAddressKey(ip: string, ipv6PrefixLength: number): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.parse(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const v6 = address as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const parts = v6.toByteArray();
  for (let bit = ipv6PrefixLength; bit < 128; bit++) parts[bit >> 3]! &= ~(0x80 >> (bit & 7));
  return `${ipaddr.fromByteArray(parts).toString()}/${ipv6PrefixLength}`;
}
