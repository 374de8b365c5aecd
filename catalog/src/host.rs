//! The computer a GPU sits in, where it matters to the estimate: how much system memory
//! holds the weights that do not fit on the GPU, and how fast the CPU reads them
//! (`host=` in a link: `64`, `64-ddr4`, `256-ddr5x8`).

/// The kind of system memory, at its fastest JEDEC speed on current platforms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RamKind {
    /// DDR4-3200, the fastest JEDEC DDR4 speed: 3,200 MT/s × 8 bytes = 25.6 GB/s a channel.
    Ddr4,
    /// DDR5-5600, the JEDEC speed AMD's AM5 and Intel's 13th/14th-generation desktop
    /// processors are specified for: 5,600 MT/s × 8 bytes = 44.8 GB/s a channel.
    Ddr5,
}

impl RamKind {
    pub const ALL: [RamKind; 2] = [RamKind::Ddr4, RamKind::Ddr5];

    pub fn as_str(self) -> &'static str {
        match self {
            RamKind::Ddr4 => "ddr4",
            RamKind::Ddr5 => "ddr5",
        }
    }

    pub fn parse(token: &str) -> Option<RamKind> {
        RamKind::ALL.into_iter().find(|k| k.as_str() == token)
    }

    /// Peak read bandwidth of one 64-bit channel, GB/s (transfer rate × 8 bytes).
    pub fn channel_gbs(self) -> f64 {
        match self {
            RamKind::Ddr4 => 3.2 * 8.0,
            RamKind::Ddr5 => 5.6 * 8.0,
        }
    }
}

/// System memory of the machine the GPU is in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Host {
    pub ram_gb: u32,
    pub kind: RamKind,
    /// Memory channels: two on desktop boards, four on HEDT, eight or twelve on servers.
    pub channels: u32,
}

/// The machine a link that names none is taken to be: 32 GB of dual-channel DDR5. In
/// Steam's hardware survey 16 GB (41.7%) and 32 GB (35.4%) were the most common amounts in
/// August 2025, 32 GB gaining; a machine bought or built for local models has the larger.
/// DDR5 is the memory of current desktop platforms.
pub const DEFAULT_HOST: Host = Host {
    ram_gb: 32,
    kind: RamKind::Ddr5,
    channels: 2,
};

/// The most memory channels a link may name (a 12-channel server socket).
pub const MAX_CHANNELS: u32 = 12;

/// System memory the operating system, the desktop and the runtime itself keep for
/// themselves: weights offloaded to the CPU get what is left. A stated allowance, not a
/// measurement.
pub const HOST_RESERVED_BYTES: f64 = 8e9;

/// The most and least system memory a link may name, GB.
pub const HOST_RAM_RANGE: (f64, f64) = (8.0, 4096.0);

impl Default for Host {
    fn default() -> Self {
        DEFAULT_HOST
    }
}

impl Host {
    /// Bytes of system memory weights may take.
    pub fn usable_bytes(self) -> f64 {
        (f64::from(self.ram_gb) * 1e9 - HOST_RESERVED_BYTES).max(0.0)
    }

    /// Peak read bandwidth of all channels, GB/s.
    pub fn bandwidth_gbs(self) -> f64 {
        self.kind.channel_gbs() * f64::from(self.channels)
    }

    /// The token a link writes: the size, then the kind and channels where they are not
    /// dual-channel DDR5.
    pub fn token(self) -> String {
        match (self.kind, self.channels) {
            (RamKind::Ddr5, 2) => self.ram_gb.to_string(),
            (kind, 2) => format!("{}-{}", self.ram_gb, kind.as_str()),
            (kind, n) => format!("{}-{}x{n}", self.ram_gb, kind.as_str()),
        }
    }

    /// Reads `64`, `64-ddr4`, `256-ddr5x8`: whole gigabytes in `HOST_RAM_RANGE`, DDR5
    /// unless named, two channels unless `xN` (1 to `MAX_CHANNELS`) follows the kind.
    pub fn parse(token: &str) -> Option<Host> {
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let (size, kind, channels) = match token.split_once('-') {
            Some((size, rest)) => {
                let (kind, channels) = match rest.split_once('x') {
                    Some((kind, n)) if digits(n) => (kind, n.parse::<u32>().ok()?),
                    Some(_) => return None,
                    None => (rest, 2),
                };
                (size, RamKind::parse(kind)?, channels)
            }
            None => (token, RamKind::Ddr5, 2),
        };
        if !digits(size) || !(1..=MAX_CHANNELS).contains(&channels) {
            return None;
        }
        let ram_gb: u32 = size.parse().ok()?;
        let (low, high) = HOST_RAM_RANGE;
        (f64::from(ram_gb) >= low && f64::from(ram_gb) <= high).then_some(Host {
            ram_gb,
            kind,
            channels,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_token_round_trips_and_rejects_the_rest() {
        for token in [
            "64",
            "64-ddr4",
            "128",
            "8",
            "4096-ddr4",
            "256-ddr5x8",
            "64-ddr4x4",
            "16-ddr5x1",
        ] {
            let host = Host::parse(token).expect(token);
            assert_eq!(host.token(), token);
        }
        assert_eq!(
            Host::parse("64-ddr5").map(Host::token).as_deref(),
            Some("64")
        );
        assert_eq!(
            Host::parse("64-ddr5x2").map(Host::token).as_deref(),
            Some("64")
        );
        for bad in [
            "",
            "4",
            "5000",
            "64-ddr3",
            "64gb",
            "-ddr4",
            "64-",
            "1.5",
            "+64",
            "64-ddr4x0",
            "64-ddr4x13",
            "64-ddr4x",
            "64-ddr4x+2",
            "64-x4",
        ] {
            assert_eq!(Host::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn two_channels_of_each_kind() {
        let gbs = |t: &str| Host::parse(t).map_or(0.0, Host::bandwidth_gbs);
        assert!((gbs("32-ddr4") - 51.2).abs() < 1e-9);
        assert!((DEFAULT_HOST.bandwidth_gbs() - 89.6).abs() < 1e-9);
        assert!((gbs("256-ddr5x8") - 358.4).abs() < 1e-9);
        assert!((DEFAULT_HOST.usable_bytes() - 24e9).abs() < 1.0);
    }
}
