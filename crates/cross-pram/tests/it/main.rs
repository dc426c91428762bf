mod fixtures;
mod props;
mod specs;
