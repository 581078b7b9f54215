// @aalis/plugin-media: images for models that cannot see them — each image described by a model that can
// (plugins.media.describeModel or the first with vision), the description cached by content hash in the database
// and marked as a description for the model; the describe_image tool for a second look with a question; a note
// to the person once per session when no model can see.

export { describeImageTool } from './describe-image-tool.js';
export { type DescriptionStore, MEDIA_NAMESPACE, type StoredDescription } from './description-store.js';
export { type Description, ImageDescriber } from './image-describer.js';
export { ImagesForModel } from './images-for-model.js';
export { type MediaConfig, mediaConfigSchema } from './media-config.js';
export { default, MEDIA_PLUGIN } from './media-plugin.js';
export { mediaErrors, mediaTexts } from './media-texts.js';
export { postgresDescriptionStore } from './postgres-description-store.js';
export { sqliteDescriptionStore } from './sqlite-description-store.js';
