import { describe, expect, it } from 'vitest';
import {
  COMPANY_TEXT_FIELDS,
  CompanyRegistrationSchema,
  companyFieldError,
  companyFieldErrors,
  detectLicenseType,
  isValidNzbn,
} from './companies.ts';

describe('detectLicenseType', () => {
  const of = (hex: string, pad = 16) => Buffer.concat([Buffer.from(hex, 'hex'), Buffer.alloc(pad)]);

  it('recognises JPEG and PNG by their first bytes', () => {
    expect(detectLicenseType(of('ffd8ffe0'))).toEqual({ ext: 'jpg', contentType: 'image/jpeg' });
    expect(detectLicenseType(of('ffd8ffdb'))).toEqual({ ext: 'jpg', contentType: 'image/jpeg' });
    expect(detectLicenseType(of('89504e470d0a1a0a'))).toEqual({ ext: 'png', contentType: 'image/png' });
  });

  it('refuses everything else, including the picker’s pdf, tiff and gif, and files too short to tell', () => {
    for (const hex of [
      '25504446',
      '49492a00',
      '4d4d002a',
      '474946383961',
      '52494646',
      '3c737667',
      '504b0304',
      '7f454c46',
    ]) {
      expect(detectLicenseType(of(hex))).toBeNull();
    }
    expect(detectLicenseType(Buffer.from('89504e470d0a1a', 'hex'))).toBeNull();
    expect(detectLicenseType(Buffer.from('ffd8ff', 'hex'))).toBeNull();
  });
});

describe('the registration rules', () => {
  it('give one message per field, in the spec’s words', () => {
    expect(companyFieldError('companyName', '')).toBe('Company name is required');
    expect(companyFieldError('companyName', 'Ab')).toBe('Company name must be at least 3 characters');
    expect(companyFieldError('companyName', 'Abc')).toBeNull();
    expect(companyFieldError('address', '1234')).toBe('Address 1 must be at least 5 characters');
    expect(companyFieldError('phoneNumber', '1234567')).toBeNull();
    expect(companyFieldError('phoneNumber', '12345678901234')).toBeNull();
    expect(companyFieldError('phoneNumber', '123456789012345')).toBe('Phone number must be between 7 and 14 digits');
    expect(companyFieldError('contactPersonName', 'Tāne Mahuta')).toBeNull();
    expect(companyFieldError('contactPersonName', '')).toBeNull();
    expect(companyFieldError('contactPersonJobTitle', 'Dir.')).toBe(
      'Job title must only contain alphabetic characters',
    );
    expect(companyFieldErrors({})).toEqual({
      companyName: 'Company name is required',
      phoneNumber: 'Phone number is required',
      address: 'Address 1 is required',
    });
  });

  it('finish quickly on adversarial 100 000-character inputs (IN-08)', () => {
    const attacks = [
      'a'.repeat(100_000),
      `${'a.'.repeat(50_000)}@`,
      `a@${'a-'.repeat(50_000)}`,
      `${'a '.repeat(50_000)}1`,
      '1'.repeat(100_000),
      `${'@'.repeat(100_000)}`,
    ];
    for (const field of COMPANY_TEXT_FIELDS) {
      for (const attack of attacks) {
        const started = performance.now();
        companyFieldError(field, attack);
        expect(performance.now() - started, `${field} with ${attack.slice(0, 6)}…`).toBeLessThan(50);
      }
    }
  });
});

describe('isValidNzbn (GS1 check digit of a 13-digit GTIN, New Zealand prefix 94)', () => {
  it('accepts real New Zealand Business Numbers', () => {
    for (const nzbn of ['9429046393920', '9429050294954', '9429033362823']) expect(isValidNzbn(nzbn), nzbn).toBe(true);
  });

  it('refuses a wrong check digit, the wrong length, another prefix and anything but digits', () => {
    // The weighted sum of 942903458166 makes the check digit 7, not 1.
    expect(isValidNzbn('9429034581661')).toBe(false);
    expect(isValidNzbn('9429034581667')).toBe(true);
    expect(isValidNzbn('942904639392')).toBe(false);
    expect(isValidNzbn('94290463939200')).toBe(false);
    // A valid 13-digit GTIN (its check digit is right) that is not a New Zealand number.
    expect(isValidNzbn('4006381333931')).toBe(false);
    expect(isValidNzbn('942904639392O')).toBe(false);
    expect(isValidNzbn('94290463939a0')).toBe(false);
    expect(isValidNzbn('')).toBe(false);
    expect(isValidNzbn(' 9429046393920')).toBe(false);
  });
});

describe('the NZBN field', () => {
  const required = { companyName: 'Harbour Freight', phoneNumber: '0211234567', address: '12 Quay Street' };
  const parse = (nzbn?: string) => CompanyRegistrationSchema.parse({ ...required, nzbn }).nzbn;

  it('removes the spaces people copy with the number, and is null when empty or absent', () => {
    expect(parse('9429 0463 9392 0')).toBe('9429046393920');
    expect(parse(' 9429046393920 ')).toBe('9429046393920');
    expect(parse('')).toBeNull();
    expect(parse('   ')).toBeNull();
    expect(parse(undefined)).toBeNull();
  });

  it('says one message for every wrong number', () => {
    const message = 'NZBN must be 13 digits (check the number on your NZBN record)';
    for (const wrong of ['9429034581661', '942904639392', '94290463939200', '4006381333931', 'NZBN9429046393']) {
      expect(companyFieldError('nzbn', wrong), wrong).toBe(message);
    }
    expect(companyFieldError('nzbn', '9429 0463 9392 0')).toBeNull();
    expect(companyFieldError('nzbn', '')).toBeNull();
  });
});
