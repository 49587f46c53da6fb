import { describe, expect, it } from 'vitest';
import { expandSavedReply, formatMinutes } from './desk.ts';

describe('formatMinutes', () => {
  it('says "under a minute" rather than "0 min"', () => {
    expect(formatMinutes(0)).toBe('under a minute');
    expect(formatMinutes(0.4)).toBe('under a minute');
    expect(formatMinutes(0.99)).toBe('under a minute');
  });

  it('counts minutes, then hours, then days', () => {
    expect(formatMinutes(1)).toBe('1 min');
    expect(formatMinutes(12.4)).toBe('12 min');
    expect(formatMinutes(59.7)).toBe('1 h');
    expect(formatMinutes(210)).toBe('3.5 h');
    expect(formatMinutes(3 * 1440)).toBe('3 days');
    expect(formatMinutes(null)).toBe('–');
  });
});

describe('expandSavedReply', () => {
  it('fills in {{user.name}}, or "there" without a name, beside the number and the address', () => {
    const body = 'Kia ora {{user.name}}, about #{{ticket.number}} ({{ user.email }}).';
    expect(
      expandSavedReply(body, { ticketNo: 1004, reason: 'General', userEmail: 'a@example.com', userName: 'Aroha $&' }),
    ).toBe('Kia ora Aroha $&, about #1004 (a@example.com).');
    expect(
      expandSavedReply(body, { ticketNo: 1004, reason: 'General', userEmail: 'a@example.com', userName: null }),
    ).toBe('Kia ora there, about #1004 (a@example.com).');
  });
});
