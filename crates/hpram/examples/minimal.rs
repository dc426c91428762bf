//! The smallest H-PRAM program: tree reduction of `0..16` on 4 processors, hierarchical form,
//! priced under the hypercube preset by every formula, with its hierarchy.

use hpram::algs::{TreeForm, tree_reduce};
use hpram::{Config, Formula, MemoryVariant, Preset, SyncScale, run};

fn main() -> Result<(), hpram::HpramError> {
    let input: Vec<i64> = (0..16).collect();
    let done = run(&Config::new(4, 16), tree_reduce(TreeForm::Hier), vec![], &input)?;
    println!("sum = {}", done.memory[0]);
    print!("{}", done.cost.render());
    let cube = Preset::Hypercube(SyncScale::Diam);
    for formula in Formula::ALL {
        let eval = done.cost.eval(&cube, MemoryVariant::NonUniform, formula)?;
        println!("{formula:?}: tau = {}", eval.total);
    }
    Ok(())
}
