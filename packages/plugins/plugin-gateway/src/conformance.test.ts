// Runs the gateway conformance suite against plugin-gateway with the real hooks service.
import { describeGatewayConformance } from '@aalis/api-gateway/conformance';
import { App, memorySink } from '@aalis/core';
import hooksPlugin from '@aalis/plugin-hooks';
import plugin from './index.js';

describeGatewayConformance('@aalis/plugin-gateway', () => {
  let app: App | undefined;
  return {
    async start(extras) {
      app = new App({ logSinks: [memorySink()], locale: 'en' });
      app.plugin(hooksPlugin);
      app.plugin(plugin);
      for (const extra of extras) app.plugin(extra);
      await app.start();
      return app;
    },
    async stop() {
      await app?.stop();
      app = undefined;
    },
  };
});
