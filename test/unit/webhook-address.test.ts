import { describe, expect, it } from 'vitest';
import { hostProblem, isPublicAddress } from '../../lib/webhooks/address';

/** Where webhooks may not go (contract section 9), as `new URL` spells hosts. */

const hostOf = (url: string) => new URL(url).hostname;

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
  ])('refuses %s', (url) => {
    expect(hostProblem(hostOf(url))).toBeDefined();
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
