export { compileSchedule } from '../../src/hive/schedule/index.js';
export { Invalid } from '../../src/hive/errors.js';
