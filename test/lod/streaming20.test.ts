/** Planet streaming, a teleport from orbit to 20 m with 16 fast simulated workers (streamingSim.ts). */
import { describeTeleport } from './streamingSim';

describeTeleport(20);
