import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { PasskeyAssertion } from '../../../contracts/second-factor.schemas.ts';

/**
 * Passkeys (WebAuthn) through @simplewebauthn/server 14: the relying party is the site itself
 * (rpID: the host name of PUBLIC_BASE_URL; origin: PUBLIC_BASE_URL). No attestation is asked for:
 * any authenticator the admin trusts will do. The challenges are kept by the caller (auth_challenges).
 * The library is loaded at the first passkey operation, not at start-up: it is about 0.3 s of CPU
 * that most starts (and every command-line run) never need (docs/decisions/101-start-up-cost.md).
 */
const webauthn = () => import('@simplewebauthn/server');
export interface RelyingParty {
  rpName: string;
  rpID: string;
  origin: string;
}

export function relyingPartyOf(publicBaseUrl: string, companyName: string): RelyingParty {
  const url = new URL(publicBaseUrl);
  return { rpName: companyName, rpID: url.hostname, origin: url.origin };
}

export interface StoredPasskey {
  credentialId: string;
  publicKey: string;
  signCount: number;
  transports: string[];
}

type ChallengeCheck = (challenge: string) => Promise<boolean>;

export async function registrationOptions(
  rp: RelyingParty,
  user: { id: string; email: string },
  existing: Pick<StoredPasskey, 'credentialId' | 'transports'>[],
) {
  const { generateRegistrationOptions } = await webauthn();
  return generateRegistrationOptions({
    rpName: rp.rpName,
    rpID: rp.rpID,
    userName: user.email,
    userID: new Uint8Array(Buffer.from(user.id.replaceAll('-', ''), 'hex')),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports as never })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
}

/** The new credential when the browser's answer is right for a challenge `takeChallenge` accepts; null otherwise. */
export async function checkRegistration(
  rp: RelyingParty,
  response: unknown,
  takeChallenge: ChallengeCheck,
): Promise<StoredPasskey | null> {
  const { verifyRegistrationResponse } = await webauthn();
  const result = await verifyRegistrationResponse({
    response: response as RegistrationResponseJSON,
    expectedChallenge: takeChallenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    requireUserVerification: false,
  }).catch(() => null);
  if (!result?.verified) return null;
  const { credential } = result.registrationInfo;
  return {
    credentialId: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    signCount: credential.counter,
    transports: credential.transports ?? [],
  };
}

export async function authenticationOptions(
  rp: RelyingParty,
  passkeys: Pick<StoredPasskey, 'credentialId' | 'transports'>[],
) {
  const { generateAuthenticationOptions } = await webauthn();
  return generateAuthenticationOptions({
    rpID: rp.rpID,
    allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: p.transports as never })),
    userVerification: 'preferred',
  });
}

/** The new signature counter when the assertion is right; null otherwise. */
export async function checkAuthentication(
  rp: RelyingParty,
  assertion: PasskeyAssertion,
  passkey: StoredPasskey,
  takeChallenge: ChallengeCheck,
): Promise<number | null> {
  const { verifyAuthenticationResponse } = await webauthn();
  const result = await verifyAuthenticationResponse({
    response: assertion as AuthenticationResponseJSON,
    expectedChallenge: takeChallenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    credential: {
      id: passkey.credentialId,
      publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
      counter: passkey.signCount,
      transports: passkey.transports as never,
    },
    requireUserVerification: false,
  }).catch(() => null);
  return result?.verified ? result.authenticationInfo.newCounter : null;
}
