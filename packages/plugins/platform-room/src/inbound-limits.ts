// The room limits an adapter's section holds (room-limits-schema), in the form inboundContent takes them.

export interface RoomLimitsSettings {
  maxInboundLength: number;
  image: { maxBytes: number; fetchTimeoutMs: number };
  file: { maxBytes: number; fetchTimeoutMs: number };
}

export function inboundLimits(settings: RoomLimitsSettings) {
  return {
    maxLength: settings.maxInboundLength,
    image: { maxBytes: settings.image.maxBytes, timeoutMs: settings.image.fetchTimeoutMs },
    file: { maxBytes: settings.file.maxBytes, timeoutMs: settings.file.fetchTimeoutMs },
  };
}
