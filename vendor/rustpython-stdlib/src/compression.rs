//! internal shared module for compression libraries

use crate::vm::{
    PyResult, VirtualMachine,
    builtins::PyBaseExceptionRef,
    function::{ArgBytesLike, OptionalArg, PySsize},
};

#[derive(FromArgs)]
pub(crate) struct DecompressArgs {
    #[pyarg(positional)]
    data: ArgBytesLike,
    // Omitted max_length is 0, which means unlimited for this call.
    #[pyarg(any, optional, py_default = "0")]
    max_length: OptionalArg<PySsize>,
}

impl DecompressArgs {
    pub(crate) fn data(&self) -> crate::common::borrow::BorrowedValue<'_, [u8]> {
        self.data.borrow_buf()
    }
    pub(crate) fn raw_max_length(&self) -> Option<isize> {
        self.max_length.into_option()
    }
}

#[derive(FromArgs)]
pub(crate) struct DecompressorArgs {
    #[pyarg(any)]
    data: ArgBytesLike,
    // Missing max_length is unlimited, shown as -1.
    #[pyarg(any, optional, py_default = "-1")]
    max_length: OptionalArg<PySsize>,
}

impl DecompressorArgs {
    pub(crate) fn data(&self) -> crate::common::borrow::BorrowedValue<'_, [u8]> {
        self.data.borrow_buf()
    }

    pub(crate) fn max_length(&self) -> Option<usize> {
        self.max_length
            .into_option()
            .and_then(|value| usize::try_from(value).ok())
    }
}

/// Output pieces at most this large at first, and at most `LARGEST_STEP` later on.
const FIRST_STEP: usize = 1 << 20;
/// The backends grow a piece's buffer infallibly: pieces stay far below the size (64 MiB) that the
/// host's counting allocator refuses over a run's memory limit, which would abort the host.
const LARGEST_STEP: usize = 32 << 20;

/// A decompressor that can be asked for at most `step` bytes of output at a time.
pub(crate) trait Stepwise {
    type Error;
    /// At most `step` bytes of the output of `input` and what earlier calls kept back.
    fn next_piece(&mut self, input: &[u8], step: usize) -> Result<Vec<u8>, Self::Error>;
    /// What to pass to the next call, or `None` once the input given so far is all output.
    fn next_input(&self) -> Option<Vec<u8>>;
}

/// toolplane: decompresses `data` without an output limit the way the backend does with one, a
/// piece at a time, gathered into a vector grown fallibly. A decompression bomb is then a
/// `MemoryError` at the run's memory limit rather than an abort of the process (the backends' own
/// unlimited paths grow their vectors infallibly), and the time limit is polled between pieces.
pub(crate) fn gather_output<D: Stepwise>(
    decompressor: &mut D,
    data: &[u8],
    error: impl Fn(D::Error) -> PyBaseExceptionRef,
    vm: &VirtualMachine,
) -> PyResult<Vec<u8>> {
    let mut output = decompressor
        .next_piece(data, FIRST_STEP)
        .map_err(&error)?;
    while let Some(input) = decompressor.next_input() {
        vm.check_signals()?;
        let step = output.len().clamp(FIRST_STEP, LARGEST_STEP);
        let piece = decompressor.next_piece(&input, step).map_err(&error)?;
        output
            .try_reserve(piece.len())
            .map_err(|_| vm.no_memory_error())?;
        output.extend_from_slice(&piece);
    }
    Ok(output)
}
