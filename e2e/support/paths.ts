import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RENDERER_DIST = path.join(ROOT, 'renderer', 'dist');
export const ARTIFACTS = path.join(ROOT, 'e2e', 'artifacts');
export const SCREENSHOTS = path.join(ARTIFACTS, 'screens');
export const DOC_SCREENSHOTS = path.join(ROOT, 'docs', 'screenshots');
export const STATEMENT_FIXTURES = path.join(ROOT, 'test', 'fixtures', 'statements');
