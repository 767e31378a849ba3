// The unit tests of src/lib alone, for stryker.unit.json: the same set-up
// as vite.config.ts without the component tests.
import base from './vite.config';

export default { ...base, test: { ...base.test, include: ['src/lib/*.test.ts'] } };
