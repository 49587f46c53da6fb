import { describe, expect, it } from 'vitest';
import {
  COMPANY_MESSAGES,
  COMPANY_TEXT_FIELDS,
  detectLicenseType,
  isValidNzbn,
  LICENCE_FIELD_TEXT,
  LICENCE_TYPES_TEXT,
  LICENSE_PICKER_ACCEPT,
} from './companies.ts';
import { CompanyRegistrationSchema, companyFieldError, companyFieldErrors } from './companies.schemas.ts';
import { CHANGES_TEXT } from './partner-changes.ts';

describe('detectLicenseType', () => {
  const of = (hex: string, pad = 16) => Buffer.concat([Buffer.from(hex, 'hex'), Buffer.alloc(pad)]);

  it('recognises JPEG, PNG and PDF by their first bytes (decision 130)', () => {
    expect(detectLicenseType(of('ffd8ffe0'))).toEqual({ ext: 'jpg', contentType: 'image/jpeg' });
    expect(detectLicenseType(of('ffd8ffdb'))).toEqual({ ext: 'jpg', contentType: 'image/jpeg' });
    expect(detectLicenseType(of('89504e470d0a1a0a'))).toEqual({ ext: 'png', contentType: 'image/png' });
    expect(detectLicenseType(Buffer.from('%PDF-1.7\n%%EOF\n'))).toEqual({ ext: 'pdf', contentType: 'application/pdf' });
  });

  it('refuses everything else, including tiff and gif, a PDF marker not at the start, and files too short to tell', () => {
    for (const hex of ['49492a00', '4d4d002a', '474946383961', '52494646', '3c737667', '504b0304', '7f454c46']) {
      expect(detectLicenseType(of(hex))).toBeNull();
    }
    expect(detectLicenseType(Buffer.from(' %PDF-1.7\n%%EOF'))).toBeNull();
    expect(detectLicenseType(Buffer.from('%PDF'))).toBeNull();
    expect(detectLicenseType(Buffer.from('89504e470d0a1a', 'hex'))).toBeNull();
    expect(detectLicenseType(Buffer.from('ffd8ff', 'hex'))).toBeNull();
  });
});

describe('the licence’s accepted types, said one way', () => {
  it('in the label, the hint and the error of /register and of the status page, and offered by the picker', () => {
    expect(LICENCE_TYPES_TEXT).toBe('JPG, PNG or PDF');
    expect(LICENCE_FIELD_TEXT.label).toBe('Commercial licence (JPG, PNG or PDF)');
    expect(LICENCE_FIELD_TEXT.hint).toContain('JPG, PNG or PDF');
    expect(COMPANY_MESSAGES.fileUnsupported).toBe('Unsupported File Format. Please choose a JPG, PNG or PDF file.');
    expect(CHANGES_TEXT.licenseLabel).toBe('New commercial licence (JPG, PNG or PDF)');
    expect(CHANGES_TEXT.licenseHint).toContain('JPG, PNG or PDF');
    expect(LICENSE_PICKER_ACCEPT).toBe('.jpg,.jpeg,.png,.pdf,image/jpeg,image/png,application/pdf');
  });
});

describe('the registration rules', () => {
  it('name the schema’s fields in the form’s order (companies.ts lists them without zod)', () => {
    expect(Object.keys(CompanyRegistrationSchema.shape)).toEqual([...COMPANY_TEXT_FIELDS]);
  });

  it('give one message per field, in the spec’s words', () => {
    expect(companyFieldError('companyName', '')).toBe('Company name is required');
    expect(companyFieldError('companyName', 'Ab')).toBe('Company name must be at least 3 characters');
    expect(companyFieldError('companyName', 'Abc')).toBeNull();
    expect(companyFieldError('address', '1234')).toBe('Address 1 must be at least 5 characters');
    expect(companyFieldError('phoneNumber', '1234567')).toBeNull();
    expect(companyFieldError('phoneNumber', '12345678901234')).toBeNull();
    expect(companyFieldError('phoneNumber', '123456789012345')).toBe('Phone number must be between 7 and 14 digits');
    expect(companyFieldError('phoneNumber', '+61 2 1234 5678')).toBe('Phone number must be between 7 and 14 digits');
    expect(companyFieldError('phoneNumber', '021.123.4567')).toBe('Phone number must be between 7 and 14 digits');
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
        // Time is the subject: a pattern that backtracks takes seconds to hours on 100,000 characters
        // and a linear one a few milliseconds; a second tells them apart on a loaded machine too.
        const started = performance.now();
        companyFieldError(field, attack);
        expect(performance.now() - started, `${field} with ${attack.slice(0, 6)}…`).toBeLessThan(1000);
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

describe('phone numbers', () => {
  const required = { companyName: 'Harbour Freight', address: '12 Quay Street' };
  const parse = (phoneNumber: string, contactPersonPhoneNumber?: string) =>
    CompanyRegistrationSchema.parse({ ...required, phoneNumber, contactPersonPhoneNumber });

  it('lose their spaces and dashes, and a leading +64 becomes the national 0, before the spec’s rules', () => {
    expect(parse('021 123 4567').phoneNumber).toBe('0211234567');
    expect(parse('021-123-4567').phoneNumber).toBe('0211234567');
    expect(parse('+64 21 123 4567').phoneNumber).toBe('0211234567');
    expect(parse('+6421-123-4567').phoneNumber).toBe('0211234567');
    expect(parse(' 09 379 0000 ', '+64 27 555 0101').contactPersonPhoneNumber).toBe('0275550101');
    expect(parse('0211234567', ' - ').contactPersonPhoneNumber).toBeNull();
    expect(companyFieldError('phoneNumber', '+64 21 123 4567')).toBeNull();
    expect(companyFieldError('contactPersonPhoneNumber', '027 555 0101')).toBeNull();
    expect(companyFieldError('phoneNumber', ' -  ')).toBe('Phone number is required');
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

  it('says in words when the check digit is wrong, and one message for every other wrong number', () => {
    expect(companyFieldError('nzbn', '9429034581661')).toBe(
      'The last digit of this NZBN (its check digit) does not match the 12 before it. Check the number on your NZBN record.',
    );
    expect(companyFieldError('nzbn', '9429 0345 8166 1')).toBe(COMPANY_MESSAGES.nzbnCheckDigit);
    const message = 'NZBN must be 13 digits (check the number on your NZBN record)';
    for (const wrong of ['942904639392', '94290463939200', '4006381333931', 'NZBN9429046393', '9429-0463-9392-0']) {
      expect(companyFieldError('nzbn', wrong), wrong).toBe(message);
    }
    expect(companyFieldError('nzbn', '9429 0463 9392 0')).toBeNull();
    expect(companyFieldError('nzbn', '')).toBeNull();
  });
});
