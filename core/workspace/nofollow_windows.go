package workspace

// oNoFollow: Windows has no O_NOFOLLOW; the walk already skips reparse points.
const oNoFollow = 0
