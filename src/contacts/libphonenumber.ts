/**
 * libphonenumber-js (max metadata), loaded once through require(): the package's CommonJS build. Its ESM build
 * imports the JSON metadata without import attributes, which Jest's ESM mode does not load correctly; same code and
 * metadata either way. Everything in the app that reads phone numbers imports it from here.
 */
import { createRequire } from 'node:module';
import type { CountryCode, Metadata as MetadataClass } from 'libphonenumber-js/max';
import type * as Max from 'libphonenumber-js/max';

const require = createRequire(import.meta.url);
export const { parsePhoneNumberFromString, validatePhoneNumberLength, isSupportedCountry, getCountryCallingCode } =
  require('libphonenumber-js/max') as typeof Max;
export const { Metadata } = require('libphonenumber-js/core') as { Metadata: new (json: unknown) => MetadataClass };
export const MAX_METADATA: unknown = require('libphonenumber-js/metadata.max.json');
export type { CountryCode, MetadataClass };
