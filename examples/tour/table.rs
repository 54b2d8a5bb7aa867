//! Aligned text tables, printed the same way by every section: columns two spaces apart,
//! a title row, a rule of dashes under each title, then one row per result.

/// A column: its width in characters, and the side its cells line up on.
#[derive(Clone, Copy, Debug)]
pub enum Column {
    Left(usize),
    Right(usize),
}

impl Column {
    fn width(self) -> usize {
        match self {
            Column::Left(width) | Column::Right(width) => width,
        }
    }

    /// `cell` padded to the column's width (a longer cell is kept whole).
    fn pad(self, cell: &str) -> String {
        match self {
            Column::Left(width) => format!("{cell:<width$}"),
            Column::Right(width) => format!("{cell:>width$}"),
        }
    }
}

/// A table of `N` columns.
pub struct Table<const N: usize> {
    columns: [Column; N],
}

impl<const N: usize> Table<N> {
    pub fn new(columns: [Column; N]) -> Self {
        Self { columns }
    }

    /// Prints the column titles, and a rule of dashes under each.
    pub fn header(&self, titles: [&str; N]) {
        self.row(titles);
        let rules = self.columns.map(|column| "-".repeat(column.width()));
        self.row(rules.each_ref().map(String::as_str));
    }

    /// Prints one row.
    pub fn row(&self, cells: [&str; N]) {
        let padded: Vec<String> = self
            .columns
            .iter()
            .zip(cells)
            .map(|(column, cell)| column.pad(cell))
            .collect();
        println!("{}", padded.join("  "));
    }
}

/// "yes" or "no", for a column of flags.
pub fn yes_no(flag: bool) -> &'static str {
    if flag {
        "yes"
    } else {
        "no"
    }
}
