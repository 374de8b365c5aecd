pub mod chart;
pub mod failure;
pub mod link;
