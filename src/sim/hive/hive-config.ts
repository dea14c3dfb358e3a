import { R } from '../client/index.js';
import type { HiveContext } from './context.js';

/**
 * The settings of HiveConfig `hive` that the simulated controllers honour (REFERENCE §8), merged with the
 * simulator's own options. A server without the HiveConfig kind or object just gives the options.
 */
export async function hiveSettings(ctx: HiveContext): Promise<{
  deleteProtection: boolean;
  deprovisionsDisabled: boolean;
  retryReasons: string[] | undefined;
}> {
  const config = await ctx.client.tryGet(R.hiveConfig, undefined, 'hive').catch(() => undefined);
  const retryReasons = config?.spec?.failedProvisionConfig?.retryReasons;
  return {
    deleteProtection: ctx.options.deleteProtection || config?.spec?.deleteProtection === 'enabled',
    deprovisionsDisabled: config?.spec?.deprovisionsDisabled === true,
    // failedProvisionConfig.retryReasons: unset means retry every failure; a list (even empty) restricts retries.
    retryReasons: Array.isArray(retryReasons) ? retryReasons : undefined,
  };
}
