// The worker role as its own process (one image, the role is the command: `npm run start:worker`).
import { start } from './start.js';

await start({ roles: ['worker'] });
