pub mod chart;
pub mod details;
pub mod failure;
pub mod link;
