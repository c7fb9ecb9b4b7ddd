// Injected into every CommonJS bundle of dist/, where import.meta does not exist: the bundle's own
// file URL stands in for import.meta.url (see build-server.js).
/* global __filename -- defined in the CommonJS wrapper this code is bundled into */
import { pathToFileURL } from 'node:url';

export const importMetaUrl = pathToFileURL(__filename).href;
