import { describe, expect, it } from 'vitest';
import { companyKeys, emailKey, nameKey, phoneKey } from './company-keys.ts';

describe('normalised company keys (IN-02)', () => {
  it('fold case, spacing and full-width letters out of company names', () => {
    const key = nameKey('Harbour Freight Ltd');
    for (const variant of [
      'harbour freight ltd',
      '  HARBOUR   Freight\tLtd ',
      'Ｈａｒｂｏｕｒ Freight Ltd',
      'Harbour\u00a0Freight Ltd',
    ]) {
      expect(nameKey(variant)).toBe(key);
    }
    expect(nameKey('Harbour Freight')).not.toBe(key);
    expect(nameKey('HarbourFreight Ltd')).not.toBe(key);
  });

  it('trim and lower-case emails', () => {
    expect(emailKey('  Aroha@HarbourFreight.co.NZ ')).toBe('aroha@harbourfreight.co.nz');
  });

  it('write a New Zealand number the same way whether national or international', () => {
    expect(phoneKey('0211234567')).toBe('64211234567');
    expect(phoneKey('64211234567')).toBe('64211234567');
    expect(phoneKey('0064211234567')).toBe('64211234567');
    expect(phoneKey('6491234567')).not.toBe(phoneKey('0211234567'));
  });

  it('leave the email key empty when no email was given', () => {
    expect(companyKeys({ companyName: 'Abc', phoneNumber: '1234567', contactPersonEmail: null }).emailKey).toBeNull();
  });
});
