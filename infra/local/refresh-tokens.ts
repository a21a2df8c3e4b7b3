import { randomBytes } from 'node:crypto';
import type { LocalUser } from './issuer';

/**
 * The local stand-in's refresh tokens, kept as Cognito keeps a user pool app client's:
 * - they expire: a sign-in's refresh tokens stop working `validitySeconds` after it (Cognito's
 *   `RefreshTokenValidity`: 30 days by default; the console's app client in infra/cdk/console.ts
 *   sets 12 hours, and so does this stand-in);
 * - they rotate (Cognito's refresh token rotation): every refresh grant answers a new refresh
 *   token, and the one it used stops working `rotationGraceSeconds` later (Cognito's
 *   `RetryGracePeriodSeconds`, 0-60; the console's client sets 10), so a retried refresh still
 *   succeeds. A rotated token belongs to the same sign-in and ends with it;
 * - they are revoked (`/oauth2/revoke`, RFC 7009): revoking any refresh token of a sign-in ends
 *   every refresh token of that sign-in at once, the grace period included.
 * Kept in memory: a restart of `npm start` signs everyone out, as a revocation would.
 */

export interface RefreshTokenRules {
  validitySeconds: number;
  rotationGraceSeconds: number;
  /** The clock, in milliseconds (tests move it). */
  now: () => number;
}

/** The console's app client in AWS: 12 hours, rotation with a 10 s grace period (infra/cdk/console.ts). */
export const CONSOLE_REFRESH_TOKEN_RULES: RefreshTokenRules = {
  validitySeconds: 12 * 3600,
  rotationGraceSeconds: 10,
  now: Date.now,
};

interface SignInSession {
  user: LocalUser;
  expiresAt: number;
  tokens: Set<string>;
}

interface TokenState {
  session: SignInSession;
  /** When a refresh used it; it stops working a grace period later. */
  rotatedAt?: number;
}

export function createRefreshTokens(rules: RefreshTokenRules = CONSOLE_REFRESH_TOKEN_RULES) {
  const tokens = new Map<string, TokenState>();

  const add = (session: SignInSession) => {
    const token = randomBytes(32).toString('base64url');
    tokens.set(token, { session });
    session.tokens.add(token);
    return token;
  };

  const end = (session: SignInSession) => {
    for (const token of session.tokens) tokens.delete(token);
    session.tokens.clear();
  };

  /** Forgets sign-ins that have expired, so the map holds live ones only. */
  const prune = () => {
    const now = rules.now();
    for (const state of tokens.values()) if (state.session.expiresAt <= now) end(state.session);
  };

  /** The token's state while it still refreshes; undefined once expired, rotated past its grace, revoked or never issued. */
  const live = (token: string) => {
    const state = tokens.get(token);
    const now = rules.now();
    if (!state || state.session.expiresAt <= now) return undefined;
    if (state.rotatedAt !== undefined && now - state.rotatedAt >= rules.rotationGraceSeconds * 1000) return undefined;
    return state;
  };

  return {
    /** The first refresh token of a sign-in. */
    issue(user: LocalUser): string {
      prune();
      return add({ user, expiresAt: rules.now() + rules.validitySeconds * 1000, tokens: new Set() });
    },
    /** A refresh grant: the user and the refresh token that replaces `token`, or undefined (invalid_grant). */
    rotate(token: string): { user: LocalUser; refreshToken: string } | undefined {
      const state = live(token);
      if (!state) return undefined;
      state.rotatedAt ??= rules.now();
      return { user: state.session.user, refreshToken: add(state.session) };
    },
    /** Ends the sign-in `token` belongs to (every refresh token of it); a token not known is no error (RFC 7009 section 2.2). */
    revoke(token: string): void {
      const state = tokens.get(token);
      if (state) end(state.session);
    },
  };
}
