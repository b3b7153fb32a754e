/**
 * The playground's demo workspace: a few people with different roles and languages, three channels (public,
 * private, shared with another company) and each person's DM with the app; and the app's permission settings that
 * make those roles what the switcher says they are (ADMIN_USER_IDS, RESPONDER_USER_IDS: docs/operations.md, "Who may
 * do what").
 */
import type { FakeChannelInit, FakeUserInit } from '../emulator/fake-slack.js';
import type { PageUser } from './api.js';

export const TEAM = { id: 'T0PLAYGND', name: 'Playground', domain: 'playground' };
const PARTNER_TEAM = 'T0PARTNER';
export const APP = { botUserId: 'U0OUTREACH', botId: 'B0OUTREACH', appId: 'A0OUTREACH', name: 'Outreach' };

interface DemoPerson extends PageUser {
  tz: string;
  email: string;
  /** Slack's guest flag (a multi-channel guest). */
  guest?: boolean;
}

export const PEOPLE: readonly DemoPerson[] = [
  {
    id: 'U0MARIANA',
    name: 'Mariana López',
    locale: 'es-MX',
    role: 'admin',
    teamId: TEAM.id,
    tz: 'America/Mexico_City',
    email: 'mariana@playground.example',
  },
  {
    id: 'U0SAM',
    name: 'Sam Carter',
    locale: 'en-US',
    role: 'responder',
    teamId: TEAM.id,
    tz: 'America/New_York',
    email: 'sam@playground.example',
  },
  {
    id: 'U0ALEX',
    name: 'Alex Kim',
    locale: 'en-US',
    role: 'readonly',
    teamId: TEAM.id,
    tz: 'Europe/London',
    email: 'alex@playground.example',
  },
  {
    id: 'U0GUEST',
    name: 'Gabi Guest',
    locale: 'en-US',
    role: 'guest',
    teamId: TEAM.id,
    tz: 'Europe/Madrid',
    email: 'gabi@agency.example',
    guest: true,
  },
  {
    id: 'W0PRIYA',
    name: 'Priya Shah',
    locale: 'en-US',
    role: 'external',
    teamId: PARTNER_TEAM,
    tz: 'Asia/Kolkata',
    email: 'priya@partner.example',
  },
];

const [ADMIN, RESPONDER, READONLY, GUEST, EXTERNAL] = PEOPLE.map((p) => p.id) as [
  string,
  string,
  string,
  string,
  string,
];

export const CHANNELS: readonly (FakeChannelInit & { name: string })[] = [
  { id: 'C0OPERATIONS', name: 'operations', members: [ADMIN, RESPONDER, READONLY, GUEST] },
  { id: 'G0COLLECTIONS', name: 'collections-team', isPrivate: true, members: [ADMIN, RESPONDER] },
  {
    id: 'C0PARTNER',
    name: 'shared-with-partner',
    isExtShared: true,
    members: [ADMIN, RESPONDER, READONLY, EXTERNAL],
  },
];

/** The app's settings that give the people their roles: the admin may change, admin and responder may reply. */
export const PERMISSION_ENV = {
  ADMIN_USER_IDS: ADMIN,
  RESPONDER_USER_IDS: [ADMIN, RESPONDER].join(','),
};

export function emulatorUsers(): FakeUserInit[] {
  return PEOPLE.map((p) => ({
    id: p.id,
    name: p.email.split('@')[0],
    realName: p.name,
    displayName: p.name.split(' ')[0],
    email: p.email,
    tz: p.tz,
    locale: p.locale,
    teamId: p.teamId,
    ...(p.guest ? { isRestricted: true } : {}),
  }));
}

export function pageUsers(): PageUser[] {
  return PEOPLE.map(({ id, name, locale, role, teamId }) => ({ id, name, locale, role, teamId }));
}

export function isPerson(userId: string): boolean {
  return PEOPLE.some((p) => p.id === userId);
}
