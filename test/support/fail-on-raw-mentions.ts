// Jest setup (setupFilesAfterEnv): a test during which the app sent a raw `<…>` sequence from outside text to the
// fake Slack (a broadcast, a mention, a disguised link: see src/emulator/raw-mentions.ts) fails, naming what was sent where.
import { describeRawMentions, takeRawMentions } from '../../src/emulator/raw-mentions.js';

function failOnRawMentions(when: string): void {
  const found = takeRawMentions();
  if (found.length) {
    throw new Error(`The app sent text from outside unescaped to Slack (${when}):\n${describeRawMentions(found)}`);
  }
}

afterEach(() => failOnRawMentions('during this test'));
afterAll(() => failOnRawMentions('after the last test of this file'));
