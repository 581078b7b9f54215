// Runs the tools conformance suite against plugin-tools on a real App.
import { describeToolsConformance } from '@aalis/api-tools/conformance';
import { App, memorySink } from '@aalis/core';
import plugin from './index.js';

describeToolsConformance('@aalis/plugin-tools', () => {
  let app: App | undefined;
  return {
    async start(extras) {
      app = new App({ logSinks: [memorySink()], locale: 'en' });
      app.plugin(plugin);
      for (const extra of extras) app.plugin(extra);
      await app.start();
      return app;
    },
    async stop() {
      await app?.stop();
    },
  };
});
