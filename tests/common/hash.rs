//! FNV-1a over 32-bit words: the fingerprint bit-exactness tests record from an earlier build.

/// A running FNV-1a hash.
pub struct Hash(pub u64);

impl Hash {
    pub fn new() -> Self {
        Hash(0xcbf2_9ce4_8422_2325)
    }

    /// Folds one word in, byte by byte (little-endian).
    pub fn word(&mut self, w: u32) {
        for b in w.to_le_bytes() {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}
