package targets

import (
	"errors"
	"strconv"
)

func fmtInt(n int) string                 { return strconv.Itoa(n) }
func errorsAs(err error, target any) bool { return errors.As(err, target) }
