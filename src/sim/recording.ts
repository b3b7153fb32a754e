/**
 * Bytes served by GET /call/{id}/recording: a valid MP3 stream of silence (MPEG-1 Layer III, 128 kbit/s, 44.1 kHz,
 * mono), as long as the call up to RECORDING_MAX_SECONDS, so players and `file` recognise it as audio/mpeg.
 */
const RECORDING_MAX_SECONDS = 10;

const FRAME_BYTES = 417; // 144 * 128000 / 44100, no padding
const SAMPLES_PER_FRAME = 1152;
const SAMPLE_RATE = 44100;

export function silentMp3(seconds: number): Buffer {
  const frames = Math.max(1, Math.ceil((Math.min(seconds, RECORDING_MAX_SECONDS) * SAMPLE_RATE) / SAMPLES_PER_FRAME));
  const frame = Buffer.alloc(FRAME_BYTES); // zero side info and main data decode as silence
  frame.writeUInt32BE(0xfffb90c0, 0); // sync, MPEG-1, Layer III, no CRC, 128 kbit/s, 44.1 kHz, mono
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}
