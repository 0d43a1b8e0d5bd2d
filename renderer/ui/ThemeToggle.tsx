import { useEffect, useState } from 'react'
import { applyTheme, currentTheme, type Theme } from '../theme.ts'

export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme | null>(null)
  useEffect(() => setTheme(currentTheme()), [])
  const next = theme === 'dark' ? 'light' : 'dark'
  return (
    <button
      className="button is-small is-ghost"
      data-testid="theme-toggle"
      aria-label={`Switch to ${next} theme`}
      title={`Switch to ${next} theme`}
      onClick={() => {
        applyTheme(next)
        setTheme(next)
      }}>
      <span aria-hidden="true">{theme === 'dark' ? '☀️' : '🌙'}</span>
      <span className="ml-1">{next === 'dark' ? 'Dark' : 'Light'}</span>
    </button>
  )
}
