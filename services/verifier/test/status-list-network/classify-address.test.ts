import { describe, expect, it } from 'vitest';
import { statusListNetworkPolicyOf } from '../../src/config.js';
import { classifyAddress } from '../../src/network/classify-address.js';
import { isInternalHost, parseHostList } from '../../src/domain/status-list-network-policy.js';

// The address rule of status list fetches, range by range: each refused range at
// its edges, and the public neighbours just outside it (which must stay allowed,
// or the test could pass with a rule that refuses everything).
const refused: Array<[string, string[]]> = [
  ['unspecified 0.0.0.0/8', ['0.0.0.0', '0.1.2.3', '0.255.255.255']],
  ['private 10/8', ['10.0.0.0', '10.1.2.3', '10.255.255.255']],
  ['private 172.16/12', ['172.16.0.0', '172.20.1.1', '172.31.255.255']],
  ['private 192.168/16', ['192.168.0.0', '192.168.1.1', '192.168.255.255']],
  ['loopback 127/8', ['127.0.0.1', '127.1.2.3', '127.255.255.254']],
  ['link-local 169.254/16 (cloud metadata)', ['169.254.0.0', '169.254.169.254', '169.254.255.255']],
  ['CGNAT 100.64/10', ['100.64.0.0', '100.100.100.100', '100.127.255.255']],
  ['benchmark 198.18/15', ['198.18.0.0', '198.18.1.1', '198.19.255.255']],
  ['multicast 224/4', ['224.0.0.1', '239.255.255.250']],
  ['broadcast', ['255.255.255.255']],
  ['reserved 240/4', ['240.0.0.1', '250.1.2.3']],
  ['IETF protocol assignments and documentation', ['192.0.0.8', '192.0.2.1', '198.51.100.7', '203.0.113.9']],
  ['IPv6 unspecified and loopback', ['::', '::1', '[::1]']],
  ['IPv6 link-local fe80::/10', ['fe80::1', 'febf:ffff::1', 'fe80::1%eth0']],
  ['IPv6 unique local fc00::/7', ['fc00::1', 'fd12:3456::1']],
  ['IPv6 multicast ff00::/8', ['ff02::1', 'ff0e::1']],
  ['NAT64 64:ff9b::/96 (even of a public IPv4)', ['64:ff9b::1.2.3.4', '64:ff9b::7f00:1', '64:ff9b::808:808']],
  ['NAT64 local-use 64:ff9b:1::/48', ['64:ff9b:1::1', '64:ff9b:1:ffff::1']],
  ['6to4 2002::/16', ['2002::1', '2002:7f00:1::1', '2002:ffff::1']],
  ['Teredo 2001::/32', ['2001::1', '2001:0:ffff::1']],
  ['IPv6 benchmark 2001:2::/48', ['2001:2::1', '2001:2:0:ffff::1']],
  ['IPv6 documentation 2001:db8::/32', ['2001:db8::1']],
  ['IPv6 deprecated site-local fec0::/10', ['fec0::1']],
  [
    'IPv4-mapped IPv6 of refused IPv4',
    [
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      '::ffff:100.64.0.1',
      '::ffff:198.18.0.1',
      '::ffff:0.0.0.0',
      '::ffff:224.0.0.1',
      '::ffff:7f00:1',
    ],
  ],
  ['IPv4-compatible IPv6 (deprecated ::/96)', ['::127.0.0.1', '::8.8.8.8']],
  ['IPv6 outside 2000::/3', ['4000::1', '64:ff9a::1']],
  ['not an IP address', ['localhost', '', '1.2.3', '999.1.1.1']],
];

const allowed = [
  '8.8.8.8',
  '1.1.1.1',
  '9.255.255.255',
  '11.0.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '126.255.255.255',
  '128.0.0.0',
  '169.253.255.255',
  '172.15.255.255',
  '172.32.0.0',
  '192.167.255.255',
  '192.169.0.0',
  '198.17.255.255',
  '198.20.0.0',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2a00:1450:4001:82b::200e',
  '[2001:4860:4860::8888]',
  '2003::1',
  // An IPv4-mapped address reaches the IPv4 address it names: public when that is.
  '::ffff:8.8.8.8',
];

describe('classifyAddress', () => {
  it.each(refused)('refuses %s', (_range, addresses) => {
    for (const address of addresses) expect(classifyAddress(address), address).toMatchObject({ public: false });
  });

  it('allows global unicast addresses, including the neighbours of every refused range', () => {
    for (const address of allowed)
      expect(classifyAddress(address), address).toMatchObject({ public: true, range: 'unicast' });
  });

  it('names the range it refused', () => {
    expect(classifyAddress('100.64.0.1').range).toBe('carrierGradeNat');
    expect(classifyAddress('64:ff9b::1.2.3.4').range).toBe('rfc6052');
    expect(classifyAddress('2002::1').range).toBe('6to4');
    expect(classifyAddress('::ffff:127.0.0.1').range).toBe('loopback');
  });
});

describe('the policy from configuration', () => {
  const base = {
    STATUS_LIST_ALLOW_HTTP: undefined,
    STATUS_LIST_DENY_PRIVATE_ADDRESSES: undefined,
    STATUS_LIST_INTERNAL_HOSTS: undefined,
  };

  it('production and test refuse http and internal addresses by default; development keeps both open', () => {
    expect(statusListNetworkPolicyOf({ ...base, NODE_ENV: 'production' })).toEqual({
      allowHttp: false,
      denyPrivateAddresses: true,
      internalHosts: [],
    });
    expect(statusListNetworkPolicyOf({ ...base, NODE_ENV: 'test' })).toEqual({
      allowHttp: false,
      denyPrivateAddresses: true,
      internalHosts: [],
    });
    expect(statusListNetworkPolicyOf({ ...base, NODE_ENV: 'development' })).toEqual({
      allowHttp: true,
      denyPrivateAddresses: false,
      internalHosts: [],
    });
  });

  it('explicit settings win in every mode', () => {
    expect(
      statusListNetworkPolicyOf({
        NODE_ENV: 'production',
        STATUS_LIST_ALLOW_HTTP: true,
        STATUS_LIST_DENY_PRIVATE_ADDRESSES: false,
        STATUS_LIST_INTERNAL_HOSTS: 'status.tessera.example',
      }),
    ).toEqual({
      allowHttp: true,
      denyPrivateAddresses: false,
      internalHosts: ['status.tessera.example'],
    });
    expect(
      statusListNetworkPolicyOf({ ...base, NODE_ENV: 'development', STATUS_LIST_DENY_PRIVATE_ADDRESSES: true })
        .denyPrivateAddresses,
    ).toBe(true);
  });

  it('STATUS_LIST_INTERNAL_HOSTS: comma-separated, case-insensitive, trailing dot and IPv6 brackets ignored', () => {
    const policy = {
      internalHosts: parseHostList(' Status.Tessera.Example , status-list.tessera.svc.cluster.local.,[fd00::1],, '),
    };
    expect(policy.internalHosts).toEqual([
      'status.tessera.example',
      'status-list.tessera.svc.cluster.local',
      'fd00::1',
    ]);
    expect(isInternalHost(policy, 'STATUS.tessera.example')).toBe(true);
    expect(isInternalHost(policy, 'status-list.tessera.svc.cluster.local.')).toBe(true);
    expect(isInternalHost(policy, '[fd00::1]')).toBe(true);
    expect(isInternalHost(policy, 'evil.tessera.example')).toBe(false);
    expect(isInternalHost(policy, 'status.tessera.example.evil.test')).toBe(false);
  });
});
