// Fixed texts the MCP client puts into tool results the model reads, in zh-CN and en.
import { defineCatalogue } from '@aalis/core';

defineCatalogue({
  'zh-CN': {
    'mcp.result.image': '[图片 {mimeType}，见附件]',
    'mcp.result.imageHidden': '[图片 {mimeType}：当前模型看不了图]',
    'mcp.result.imageUnsupported': '[图片 {mimeType}：不是模型收的图片格式（PNG、JPEG、GIF、WebP），没有附上]',
    'mcp.result.audio': '[音频 {mimeType}]',
    'mcp.result.resourceLink': '[资源 {uri}{name}]',
    'mcp.result.resourceBlob': '[二进制资源 {uri}（{mimeType}）]',
    'mcp.result.empty': '（工具没有返回内容）',
  },
  en: {
    'mcp.result.image': '[image {mimeType}, attached]',
    'mcp.result.imageHidden': '[image {mimeType}: the current model cannot see images]',
    'mcp.result.imageUnsupported': '[image {mimeType}: not a type models take (PNG, JPEG, GIF, WebP); not attached]',
    'mcp.result.audio': '[audio {mimeType}]',
    'mcp.result.resourceLink': '[resource {uri}{name}]',
    'mcp.result.resourceBlob': '[binary resource {uri} ({mimeType})]',
    'mcp.result.empty': '(the tool returned no content)',
  },
});
