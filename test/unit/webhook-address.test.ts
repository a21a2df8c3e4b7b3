import { describe, expect, it } from 'vitest';
import { hostProblem, isPublicAddress } from '../../lib/webhooks/address';

/** Where webhooks may not go (contract section 9), as `new URL` spells hosts. */

const hostOf = (url: string) => new URL(url).hostname;

/** A URL `new URL` cannot parse never reaches the host check: the subscription refuses it as a URL. */
const refused = (url: string) => {
  let host: string;
  try {
    host = hostOf(url);
  } catch {
    return true;
  }
  return hostProblem(host) !== undefined;
};

describe('the private-address guard', () => {
  it.each([
    'http://127.0.0.1/',
    'http://127.1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0177.0.0.1/',
    'http://10.1.2.3/',
    'http://172.16.0.1/',
    'http://172.31.255.255/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://0.0.0.0/',
    'http://0/',
    'http://100.64.0.1/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://[::1]/',
    'http://[::]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:10.0.0.1]/',
    'http://[64:ff9b::7f00:1]/',
    'http://[fc00::1]/',
    'http://[fd00:ec2::254]/',
    'http://[fe80::1]/',
    'http://[2002:7f00:1::]/',
    'http://localhost/',
    'http://LOCALHOST./',
    'http://api.localhost/',
    'http://printer.local/',
    'http://metadata.google.internal/',
    'http://intranet/',
    // Forms of issue 34's hostile pass that the subscribe-time check missed (delivery caught them).
    'http://[::ffff:0:7f00:1]/', // ::ffff:0:0:0/96, IPv4-translated (SIIT)
    'http://[::ffff:0:a00:1]/',
    'http://[::ffff:0:a9fe:a9fe]/',
    'http://localhost../',
    'http://localhost.../',
    'http://LOCALHOST../',
    'http://api.localhost../',
    'http://printer.local../',
    'http://metadata.google.internal../',
    'http://intranet../',
    'http://intranet./',
    'http://127.1../',
    'http://127.0.0.1../',
    'http://0x7f000001../',
    'http://10.0.0.1.../',
    'http://a..example.com/', // an empty label: no DNS name has one
    // Forms the pass tried that held; kept here so they keep holding.
    'http://127.0.0.1./',
    'http://127.000.000.001/',
    'http://0x7f.0.0.1/',
    'http://017700000001/',
    'http://127.0.1/',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://[::127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[0:0:0:0:0:ffff:127.0.0.1]/',
    'http://[64:ff9b:1::a00:1]/',
    'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', // Teredo
    'http://[fe80::1%25eth0]/',
    'http://[fec0::1]/',
    'http://[ff02::1]/',
    'http://[fd00:ec2::254]/',
    'http://[100::1]/',
    'http://[2001:db8::1]/',
    'http://169.254.170.2/', // ECS task metadata
    'http://192.0.0.192/',
    'http://198.18.0.1/',
    'http://240.0.0.1/',
    'http://localhost.localdomain/',
    'http://router.lan/',
    'http://box.home.arpa/',
    'http://db/',
    'http://%6c%6f%63%61%6c%68%6f%73%74/', // percent-encoded localhost
    'http://xn--localhost-/',
  ])('refuses %s', (url) => {
    expect(refused(url)).toBe(true);
  });

  it.each([
    'https://hooks.example.com/',
    'https://93.184.215.14/',
    'https://[2606:4700::6810:85e5]/',
    'https://8.8.8.8/',
    'https://172.32.0.1/',
  ])('allows %s', (url) => {
    expect(hostProblem(hostOf(url))).toBeUndefined();
  });

  it('judges resolved addresses the same way', () => {
    expect(isPublicAddress('127.0.0.1')).toBe(false);
    expect(isPublicAddress('::1')).toBe(false);
    expect(isPublicAddress('::ffff:7f00:1')).toBe(false);
    expect(isPublicAddress('not an address')).toBe(false);
    expect(isPublicAddress('1.1.1.1')).toBe(true);
  });
});
