import { describe, it, expect } from 'vitest';
describe('toolchain', () => { it('when a test runs, then it can fail', () => { expect(1 + 1).toBe(2); }); });
